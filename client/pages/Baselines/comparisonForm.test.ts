import { describe, expect, it } from "vitest";
import { resolveForm } from "../../../test/helpers/formResolver.js";
import { comparisonFormSchema } from "./comparisonForm.js";

describe("Baseline Comparison's form", () => {
  it("needs both baselines before Compare", async () => {
    expect(Object.keys((await resolveForm(comparisonFormSchema, {})).errors)).toEqual(["baseline1", "baseline2"]);
    expect(Object.keys((await resolveForm(comparisonFormSchema, { baseline1: 3 })).errors)).toEqual(["baseline2"]);
  });

  it("compares the two chosen baselines", async () => {
    const { values, errors } = await resolveForm(comparisonFormSchema, { baseline1: 3, baseline2: 5 });
    expect(errors).toEqual({});
    expect(values).toEqual({ baseline1: 3, baseline2: 5 });
  });
});
