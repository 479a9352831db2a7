import { EventEmitter } from "node:events";

/**
 * Domain events, emitted by services after their transaction commits, so that side effects
 * (Jira comments, assignee emails) never hold a transaction open or roll a save back.
 */
export type DomainEvents = {
  requirementSaved: [
    {
      tenantId: string;
      accountId: string;
      requirementId: number;
      /** The state before the change; undefined when the requirement was created. */
      before: RequirementEventState | undefined;
      /** The state after the change; undefined when the requirement was deleted. */
      after: RequirementEventState | undefined;
    },
  ];
};

export type RequirementEventState = {
  requirementId: number;
  projectId: number;
  label: string;
  name: string;
  statusId: string | null;
  assignedTo: string | null;
  issueIds: string[];
};

export class DomainEventBus {
  private readonly emitter = new EventEmitter();

  emit<K extends keyof DomainEvents>(name: K, ...args: DomainEvents[K]): void {
    this.emitter.emit(name, ...args);
  }

  on<K extends keyof DomainEvents>(name: K, listener: (...args: DomainEvents[K]) => void | Promise<void>): void {
    this.emitter.on(name, listener as (...args: unknown[]) => void);
  }
}
