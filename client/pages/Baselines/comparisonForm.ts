import type { z } from "zod";
import { CompareQuerySchema } from "../../../common/schemas/baseline.js";

/** Baseline Comparison's two choices (spec section 5: Compare needs both), as GET /api/baseline/compare checks them. */
export const comparisonFormSchema = CompareQuerySchema.pick({ baseline1: true, baseline2: true });

export type ComparisonFormValues = z.input<typeof comparisonFormSchema>;
export type ComparedPair = z.output<typeof comparisonFormSchema>;
