/**
 * Stands in for Atlaskit's feature-gate client (`@atlaskit/feature-gate-js-client/feature-gates`, a
 * Statsig client of about 30 KB gzipped; vite.config.ts aliases it here). Atlaskit asks it for
 * Atlassian's own rollouts, which no add-on is enrolled in: every gate is off and every experiment
 * answers its default, as the real client does before it is initialised.
 */
const FeatureGates = {
  initializeCompleted: () => false,
  checkGate: (_gate: string) => false,
  getExperimentValue: <T>(_experiment: string, _parameter: string, defaultValue: T): T => defaultValue,
};

export default FeatureGates;
