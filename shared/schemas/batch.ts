// POST /api/batch's body (decision 064); its constants and answer type are in shared/batch.ts.
import { z } from "zod";
import { BATCH_MAX_REQUESTS, isBatchablePath } from "../batch";

export const batchBody = z
  .object({
    requests: z
      .array(z.string().max(2048).refine(isBatchablePath, "must be a path under /api/ that a batch can carry"))
      .min(1)
      .max(BATCH_MAX_REQUESTS),
  })
  .strict();
