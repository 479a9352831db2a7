import type { Logger } from "pino";
import type { Db } from "../db/knex.js";
import type { HostClient } from "./hostClient.js";

export function createHostClient(_db: Db, _logger: Logger): HostClient {
  return {
    call: async () => {
      throw new Error("not implemented yet");
    },
  };
}
