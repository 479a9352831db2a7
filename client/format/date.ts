import dayjs from "dayjs";
import advancedFormat from "dayjs/plugin/advancedFormat.js";

dayjs.extend(advancedFormat);

/** Spec section 9: how every date is shown. */
export const DATE_FORMAT = "MMMM Do YYYY, h:mm:ss a";

/** A server timestamp as the user reads it, in the browser's time zone; 'None' when there is none. */
export function formatDate(iso: string | Date | null | undefined): string {
  if (iso === null || iso === undefined || iso === "") return "None";
  const date = dayjs(iso);
  return date.isValid() ? date.format(DATE_FORMAT) : "None";
}
