import type { Host, HostContext } from "../host/types.js";

/** What the host says of where the main screen opens: its history entry's state and the iframe's context. */
export type HostStart = { hostState: string | undefined; context: HostContext | undefined };

type HostAsked = Pick<Host, "history" | "getContext">;
type Question = { host: HostAsked; answer: Promise<HostStart>; answered?: HostStart };

let early: Question | undefined;

/** Both asked together: one round trip to the host, not two (issue 39). A host that cannot answer leaves the iframe's own query to decide. */
function ask(host: HostAsked): Question {
  const question: Question = {
    host,
    answer: Promise.all([host.history.getState().catch(() => undefined), host.getContext().catch(() => undefined)]).then(
      ([hostState, context]) => ({ hostState, context }),
    ),
  };
  void question.answer.then((answer) => {
    question.answered = answer;
  });
  return question;
}

/**
 * Asks the host where the main screen opens as the page loads, alongside the sign-in (issue 39),
 * instead of once the screen has rendered a spinner; answers when the host has.
 */
export function askHostStartEarly(host: HostAsked): Promise<HostStart> {
  if (early?.host !== host) early = ask(host);
  return early.answer;
}

/**
 * The host's answer for a main screen that opens now: the early question's (taken once, so a screen
 * opened later in the page's life asks again and sees the history as it is then), or a new one.
 * `answered` is set when the answer is already in, so the screen's first render can show the place.
 */
export function takeHostStart(host: HostAsked): { answered?: HostStart; answer: Promise<HostStart> } {
  const question = early?.host === host ? early : ask(host);
  early = undefined;
  return { answered: question.answered, answer: question.answer };
}
