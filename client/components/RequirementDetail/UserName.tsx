import { useUser } from "../../api/jira/index.js";

/** A user's display name from the host, or their account id until (or unless) it is known. */
export function UserName({ accountId }: { accountId: string | null | undefined }) {
  const user = useUser(accountId);
  if (!accountId) return <>None</>;
  return <>{user.data?.displayName ?? accountId}</>;
}
