import { describe, expect, it } from "vitest";
import { CONTENT_LIMIT_MESSAGE } from "../../../common/schemas/requirement.js";
import type { CustomAttribute, RequirementDetail } from "../../api/requirements.js";
import {
  emptyRequirementForm,
  requirementFormFromDetail,
  requirementFormSchema,
  requirementInputFromForm,
} from "./requirementFormSchema.js";

const errorsOf = (values: typeof emptyRequirementForm) => {
  const result = requirementFormSchema.safeParse(values);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path[0], issue.message]));
};

const attributes: CustomAttribute[] = [
  {
    attribute_id: 7,
    name: "Risk",
    type: "select",
    options: [{ attribute_option_id: 70, name: "High" }],
    atlassian_project_id: 10000,
    project: 10000,
  },
  { attribute_id: 8, name: "Source", type: "string", options: [], atlassian_project_id: 10000, project: 10000 },
];

const detail: RequirementDetail = {
  requirement_id: 5,
  display_id: "RATE-1",
  prefix: "SYS",
  name: "Rate",
  description: "Adjustable rate",
  requirement_type: { requirement_type_id: 2, name: "System", prefix: "SYS", level: 2 },
  created_at: "2026-02-03T09:14:00Z",
  created_by: { account_id: "a1" },
  assigned_to: { account_id: "a2" },
  status: { atlassian_status_id: "10001" },
  components: [{ atlassian_component_id: "c1" }],
  issues: [{ atlassian_issue_id: "20101" }],
  contents: [],
  linked_requirements_v2: [
    { requirement_id: 9, prefix: "SW", display_id: null, name: "Firmware", project: 10000, requirement_type_id: 3, level: 3 },
  ],
  attributes: { "7": "70" },
  attachments: [],
  parent_folder_id: null,
  project: 10000,
  revision: 3,
  suspect_links: [],
};

describe("the requirement form", () => {
  it("needs a name and a type, and says 'Required' for each", () => {
    expect(errorsOf(emptyRequirementForm)).toEqual({ name: "Required", requirement_type_id: "Required" });
    expect(requirementFormSchema.safeParse(emptyRequirementForm).success).toBe(false);
    expect(requirementFormSchema.safeParse({ ...emptyRequirementForm, name: "  ", requirement_type_id: 1 }).success).toBe(false);
  });

  it("is complete with a name and a type; the custom ID is optional", () => {
    expect(requirementFormSchema.safeParse({ ...emptyRequirementForm, name: "Rate", requirement_type_id: 1 }).success).toBe(true);
  });

  it("is complete while the project's custom fields are untouched, as the form registers them without a value", () => {
    const untouched = { ...emptyRequirementForm, name: "Rate", requirement_type_id: 1, attributes: { "4": undefined, "5": "High" } };
    expect(requirementFormSchema.safeParse(untouched).success).toBe(true);
  });

  it("starts an edit from the requirement's current values", () => {
    expect(requirementFormFromDetail(detail)).toEqual({
      name: "Rate",
      requirement_type_id: 2,
      display_id: "RATE-1",
      description: "Adjustable rate",
      linked_requirements: [9],
      status: "10001",
      assigned_to: "a2",
      components: ["c1"],
      issues: ["20101"],
      contents: [],
      attributes: { "7": "70" },
    });
  });

  it("sends the chosen Confluence pages, at most 20 (spec section 5)", () => {
    const pages = Array.from({ length: 21 }, (_, i) => String(65537 + i));
    const values = { ...requirementFormFromDetail(detail), contents: pages.slice(0, 20) };
    expect(requirementInputFromForm(values, { isGlobal: false, attributes, existing: detail }).contents).toEqual(pages.slice(0, 20));
    expect(errorsOf({ ...values, contents: pages })).toEqual({ contents: CONTENT_LIMIT_MESSAGE });
  });

  it("sends no custom ID when it is left blank, and drops empty attributes", () => {
    const input = requirementInputFromForm(
      { ...emptyRequirementForm, name: " Rate ", requirement_type_id: 1, display_id: "  ", attributes: { "8": "" } },
      { isGlobal: false, attributes },
    );
    expect(input).toMatchObject({ name: "Rate", display_id: null, requirement_type_id: 1, attributes: {} });
  });

  it("leaves custom field values out while the project's fields are unknown, so an edit keeps the stored ones", () => {
    const input = requirementInputFromForm(requirementFormFromDetail(detail), {
      isGlobal: false,
      attributes: undefined,
      existing: detail,
    });
    expect(input.attributes).toBeUndefined();
    expect(input).toMatchObject({ name: detail.name, status: "10001" });
  });

  it("sends the linked issues the form holds, including a global requirement's", () => {
    const values = { ...requirementFormFromDetail(detail), issues: ["20101", "30502"] };
    expect(requirementInputFromForm(values, { isGlobal: false, attributes, existing: detail }).issues).toEqual(["20101", "30502"]);
    expect(requirementInputFromForm(values, { isGlobal: true, attributes }).issues).toEqual(["20101", "30502"]);
  });

  it("sends an edit's attribute values by id, and its linked issues only when the user changed them", () => {
    const input = requirementInputFromForm(requirementFormFromDetail(detail), { isGlobal: false, attributes, existing: detail });
    expect(input).toMatchObject({ status: "10001", assigned_to: "a2", components: ["c1"], attributes: { "7": "70" } });
    // Jira may have deleted an issue since the form opened: an untouched list must not link it again.
    expect(input.issues).toBeUndefined();
    const changed = { ...requirementFormFromDetail(detail), issues: ["20101", "20102"] };
    expect(requirementInputFromForm(changed, { isGlobal: false, attributes, existing: detail }).issues).toEqual(["20101", "20102"]);
  });

  it("sends no status, assignee or components for the global project", () => {
    const input = requirementInputFromForm(requirementFormFromDetail(detail), { isGlobal: true, attributes, existing: detail });
    expect(input).toMatchObject({ status: null, assigned_to: null, components: [] });
  });
});
