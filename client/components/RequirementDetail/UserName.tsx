import { token } from "@atlaskit/tokens";
import { useJiraUser } from "../../api/jira/index.js";

const avatarStyle = {
  width: 16,
  height: 16,
  borderRadius: "50%",
  verticalAlign: "text-bottom",
  marginRight: token("space.050"),
};

/** A user's avatar and display name from the host, or their account id until (or unless) it is known. */
export function UserName({ accountId }: { accountId: string | null | undefined }) {
  const user = useJiraUser(accountId);
  if (!accountId) return <>None</>;
  const avatar = user.data?.avatarUrls?.["24x24"] ?? user.data?.avatarUrls?.["16x16"];
  return (
    <>
      {avatar ? <img src={avatar} alt="" style={avatarStyle} /> : null}
      {user.data?.displayName ?? accountId}
    </>
  );
}
