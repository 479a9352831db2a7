import { useMemo } from "react";
import { requirementTypeLabel } from "../../../common/labels.js";
import { useAttributes } from "../../api/attributes.js";
import { useAssignableUsers, useProjectComponents, useProjectStatuses } from "../../api/jira/index.js";
import { useRequirementTypes } from "../../api/requirementTypes.js";
import { useCurrentUser } from "../../api/user.js";

export type Option<V> = { label: string; value: V };

/**
 * What the requirement form offers (spec section 4): the requirement types, the project's custom
 * fields, and Jira's statuses, assignable users and components as select options. A failed load
 * shows its own toast (client/api).
 */
export function useRequirementFormData(projectId: number) {
  const types = useRequirementTypes();
  const attributes = useAttributes(projectId);
  const statuses = useProjectStatuses(projectId);
  const users = useAssignableUsers(projectId);
  const components = useProjectComponents(projectId);
  const onConfluence = useCurrentUser().data?.installed_on_confluence === true;
  const options = useMemo(
    () => ({
      types: (types.data ?? []).map((type): Option<number> => ({ label: requirementTypeLabel(type), value: type.requirement_type_id })),
      statuses: (statuses.data ?? []).map((status): Option<string> => ({ label: status.name, value: status.id })),
      users: (users.data ?? []).map((user): Option<string> => ({ label: user.displayName, value: user.accountId })),
      components: (components.data ?? []).map((component): Option<string> => ({ label: component.name, value: component.id })),
    }),
    [types.data, statuses.data, users.data, components.data],
  );
  return {
    types: types.data ?? [],
    attributes: attributes.data,
    options,
    loading: {
      types: types.isLoading,
      statuses: statuses.isLoading,
      users: users.isLoading,
      components: components.isLoading,
    },
    onConfluence,
  };
}
