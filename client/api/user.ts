import { useQuery } from "@tanstack/react-query";
import type { User } from "../../common/schemas/auth.js";
import { api } from "./client.js";

/**
 * The signed-in user, read once per page. Apart from auth.ts, which the issue panel loads: the panel
 * asks for the user once without TanStack Query, which stays out of its bundle (issue 39).
 */
export function useCurrentUser() {
  return useQuery({ queryKey: ["user"], queryFn: () => api.get<User>("/api/user"), staleTime: Number.POSITIVE_INFINITY });
}
