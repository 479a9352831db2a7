import Spinner from "@atlaskit/spinner";
import { useEffect, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useHost } from "../../host/index.js";
import { goTo, locationOfPath, signInOnce } from "./signIn.js";

/** /authenticate/{location}: the hand-off from the host's signed iframe URL to the app's own token. */
export function AuthenticatePage() {
  const host = useHost();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const { pathname, search } = window.location;
    signInOnce(locationOfPath(pathname) ?? "", { pathname, search }, host).then(
      (url) => goTo(url, (inPage) => navigate(inPage, { replace: true })),
      (error: unknown) => {
        console.error("Sign-in failed", error);
        setFailed(true);
      },
    );
  }, [host, navigate]);
  if (failed) return <p>rmCloud could not sign you in. Please reload the page.</p>;
  return <Spinner size="large" label="Signing in" />;
}
