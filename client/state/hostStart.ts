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
 * The early answer, when it is in, for a main screen's first render to show the place at once.
 * Only looked at: a render React throws away (a sibling suspending) must leave it for the next.
 */
export function hostStartAnswered(host: HostAsked): HostStart | undefined {
  return early?.host === host ? early.answered : undefined;
}

/**
 * The host's answer for a main screen that has opened (its store started): the early question's,
 * taken once so that a screen opened later in the page's life asks again and sees the history as
 * it is then, or a new question.
 */
export function takeHostStart(host: HostAsked): Promise<HostStart> {
  const question = early?.host === host ? early : ask(host);
  early = undefined;
  return question.answer;
}
