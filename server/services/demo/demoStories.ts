/** One demo requirement: its level picks the default type; links and issues name other entries and Jira issue keys. */
export type DemoRequirement = {
  key: string;
  folder: string | null;
  level: number;
  name: string;
  description: string;
  links: string[];
  issueKeys: string[];
};

export type DemoStory = { folders: string[]; requirements: DemoRequirement[] };

/**
 * A traceability story per emulated Jira project (emulator/seed/jira.ts), in that project's own
 * domain: business needs down to software, each linked to the level above and to the project's
 * issues that implement or threaten it (epics at the top, stories, tasks and bugs below).
 */
export const DEMO_STORIES: Record<string, DemoStory> = {
  PUMP: {
    folders: ["Clinical needs", "System requirements", "Firmware"],
    requirements: [
      { key: "b1", folder: "Clinical needs", level: 1, name: "Prevent dose errors at the bedside", description: "Programming errors must not lead to over- or under-infusion of a patient.", links: [], issueKeys: ["PUMP-1"] },
      { key: "b2", folder: "Clinical needs", level: 1, name: "Clear the IP-200 for market under 510(k)", description: "The pump and its evidence meet the FDA 510(k) submission requirements.", links: [], issueKeys: ["PUMP-6"] },
      { key: "s1", folder: "Clinical needs", level: 2, name: "Nurses confirm every dose before it starts", description: "A nurse reviews drug, rate and volume and confirms them before any infusion or bolus starts.", links: ["b1"], issueKeys: ["PUMP-23", "PUMP-7"] },
      { key: "s2", folder: "Clinical needs", level: 2, name: "Pharmacy sets hard limits for every drug", description: "The hospital pharmacy defines hard and soft dose limits per drug in the drug library.", links: ["b1"], issueKeys: ["PUMP-3", "PUMP-30"] },
      { key: "s3", folder: null, level: 2, name: "Every infusion can be reconstructed afterwards", description: "Biomed and the regulator can trace who programmed what, and what was delivered.", links: ["b2"], issueKeys: ["PUMP-27"] },
      { key: "y1", folder: "System requirements", level: 3, name: "Drug library limit check", description: "A rate or bolus outside the drug's hard limits cannot be started; a soft-limit breach needs a second confirmation.", links: ["s2"], issueKeys: ["PUMP-15", "PUMP-14"] },
      { key: "y2", folder: "System requirements", level: 3, name: "Confirmation screen shows drug, rate and volume", description: "The confirmation screen shows the drug name, rate in mL/h and volume to be infused, in full.", links: ["s1"], issueKeys: ["PUMP-8"] },
      { key: "y3", folder: "System requirements", level: 3, name: "Infusion event log survives power loss", description: "Every start, stop, bolus and alarm is stored with time and values, and kept through a power loss.", links: ["s3"], issueKeys: ["PUMP-13", "PUMP-29"] },
      { key: "w1", folder: "Firmware", level: 4, name: "Fixed-point rate and limit calculation", description: "The dosing engine computes rates with 0.01 mL/h resolution and checks them against the library limits.", links: ["y1"], issueKeys: ["PUMP-33", "PUMP-24"] },
      { key: "w2", folder: "Firmware", level: 4, name: "Confirmation screen renders the programmed dose", description: "The screen renders the values the dosing engine will use, never a cached copy.", links: ["y2"], issueKeys: ["PUMP-17"] },
      { key: "w3", folder: "Firmware", level: 4, name: "Event log writer with power-fail flush", description: "Log entries reach non-volatile memory within 50 ms, and pending entries are flushed on a power-fail interrupt.", links: ["y3"], issueKeys: ["PUMP-9"] },
    ],
  },
  ROVER: {
    folders: ["Mission goals", "System requirements", "Flight software"],
    requirements: [
      { key: "b1", folder: "Mission goals", level: 1, name: "Reach science targets without the ground in the loop", description: "The rover drives to chosen targets autonomously, several hundred metres a sol.", links: [], issueKeys: ["ROVER-1"] },
      { key: "b2", folder: "Mission goals", level: 1, name: "Survive the Martian winter", description: "The rover keeps enough power and warmth to resume operations in spring.", links: [], issueKeys: ["ROVER-2", "ROVER-6"] },
      { key: "s1", folder: "Mission goals", level: 2, name: "Rover drivers approve each autonomous traverse", description: "Drivers preview the planned path and the hazards along it before the plan is uplinked.", links: ["b1"], issueKeys: ["ROVER-23"] },
      { key: "s2", folder: "Mission goals", level: 2, name: "Operators hear of a low battery before the next sol", description: "The ground is alerted when the predicted state of charge at dawn is below the survival margin.", links: ["b2"], issueKeys: ["ROVER-31"] },
      { key: "s3", folder: null, level: 2, name: "Electronics stay within limits at night", description: "Warm electronics stay above -40 °C through the coldest night of the winter.", links: ["b2"], issueKeys: ["ROVER-26"] },
      { key: "y1", folder: "System requirements", level: 3, name: "Hazard map from stereo images every 0.5 m", description: "Navigation rebuilds the local hazard map from the stereo cameras every 0.5 m driven.", links: ["s1"], issueKeys: ["ROVER-14", "ROVER-13"] },
      { key: "y2", folder: "System requirements", level: 3, name: "State of charge known within 3%", description: "Power management estimates the battery's state of charge within 3% across temperature.", links: ["s2"], issueKeys: ["ROVER-12", "ROVER-22"] },
      { key: "y3", folder: "System requirements", level: 3, name: "Heaters follow the thermal model", description: "Survival heaters are switched from the onboard thermal model's prediction, not from a fixed schedule.", links: ["s3"], issueKeys: ["ROVER-8"] },
      { key: "w1", folder: "Flight software", level: 4, name: "Obstacle cost map in the navigation task", description: "The navigation task turns the hazard map into a cost map the path planner reads.", links: ["y1"], issueKeys: ["ROVER-32"] },
      { key: "w2", folder: "Flight software", level: 4, name: "Coulomb counter with temperature compensation", description: "The power task integrates battery current and corrects the capacity for cell temperature.", links: ["y2"], issueKeys: ["ROVER-21"] },
      { key: "w3", folder: "Flight software", level: 4, name: "Heater duty-cycle controller", description: "The thermal task sets each heater's duty cycle from the model's predicted temperatures.", links: ["y3"], issueKeys: ["ROVER-17"] },
    ],
  },
  PAY: {
    folders: ["Business goals", "System requirements", "Services"],
    requirements: [
      { key: "b1", folder: "Business goals", level: 1, name: "Comply with PSD2 strong customer authentication", description: "Card payments of European shoppers meet the PSD2 SCA rules.", links: [], issueKeys: ["PAY-1"] },
      { key: "b2", folder: "Business goals", level: 1, name: "Refund customers without manual work", description: "Full and partial refunds need no spreadsheet or bank transfer by hand.", links: [], issueKeys: ["PAY-2"] },
      { key: "s1", folder: "Business goals", level: 2, name: "Shoppers complete 3-D Secure inside checkout", description: "The bank's challenge opens inside checkout, and a failed challenge can be retried.", links: ["b1"], issueKeys: ["PAY-22"] },
      { key: "s2", folder: "Business goals", level: 2, name: "Support agents refund part of an order", description: "An agent refunds selected items or an amount, up to what was captured.", links: ["b2"], issueKeys: ["PAY-23"] },
      { key: "s3", folder: null, level: 2, name: "Finance sees every refund in settlement", description: "Every refund appears in the settlement of the day it was paid out.", links: ["b2"], issueKeys: ["PAY-4", "PAY-30"] },
      { key: "y1", folder: "System requirements", level: 3, name: "3-D Secure 2 challenge flow", description: "Payments that need SCA go through the 3-D Secure 2 challenge before authorisation.", links: ["s1"], issueKeys: ["PAY-12"] },
      { key: "y2", folder: "System requirements", level: 3, name: "Partial refund API with idempotency keys", description: "POST /refunds takes an amount and an idempotency key; a repeated request refunds once.", links: ["s2"], issueKeys: ["PAY-32"] },
      { key: "y3", folder: "System requirements", level: 3, name: "Refunds in the daily settlement report", description: "The settlement report lists each refund with its order, amount and currency.", links: ["s3"], issueKeys: ["PAY-29"] },
      { key: "w1", folder: "Services", level: 4, name: "Challenge lookup with a 2 s budget", description: "The checkout service looks up the challenge state within 2 s and falls back to polling.", links: ["y1"], issueKeys: ["PAY-21"] },
      { key: "w2", folder: "Services", level: 4, name: "Refund amounts in minor units per currency", description: "Amounts are stored in the currency's minor unit, so zero-decimal currencies are exact.", links: ["y2"], issueKeys: ["PAY-13"] },
      { key: "w3", folder: "Services", level: 4, name: "Settlement export job", description: "A nightly job writes the settlement report and reports its row count to monitoring.", links: ["y3"], issueKeys: ["PAY-20"] },
    ],
  },
};
