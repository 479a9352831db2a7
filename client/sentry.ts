/**
 * The parts of Sentry's browser SDK the app uses, by name: errorReporting.ts imports this module on
 * demand, and the bundler keeps only these (a namespace import kept all of it, replay and feedback
 * included: some 150 KB gzipped).
 */
export { captureReactException, init } from "@sentry/react";
