/** Spec section 1: a maintenance notice exists, and the flag that shows it is always off. */
export const MAINTENANCE_MODE = false;
