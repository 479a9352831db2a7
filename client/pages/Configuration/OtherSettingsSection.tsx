import Button from "@atlaskit/button/new";
import { ErrorMessage, HelperMessage, Label } from "@atlaskit/form";
import Heading from "@atlaskit/heading";
import { Inline, Stack } from "@atlaskit/primitives";
import Spinner from "@atlaskit/spinner";
import Textfield from "@atlaskit/textfield";
import Toggle from "@atlaskit/toggle";
import { zodResolver } from "@hookform/resolvers/zod";
import { useId } from "react";
import { Controller, useForm } from "react-hook-form";
import type { z } from "zod";
import {
  type CustomerSettings,
  CustomerSettingsFormSchema,
  MAX_SPACES_TO_FILTER_LENGTH,
} from "../../../common/schemas/customerSettings.js";
import { useCustomerSettings, useSaveCustomerSettings } from "../../api/customerSettings.js";
import { failureShown } from "../../api/queryClient.js";

const SWITCHES: Array<{ name: "comment_on_associated_issues" | "send_email_notification_to_assignee"; label: string; help: string }> = [
  {
    name: "comment_on_associated_issues",
    label: "Comment on associated issues",
    help: "When a requirement is linked to or unlinked from a Jira issue, or a linked requirement changes name or status, rmCloud adds a comment to the issue.",
  },
  {
    name: "send_email_notification_to_assignee",
    label: "Email notification to assignee",
    help: "When a requirement is assigned to someone, they get an email with the requirement and a link to it.",
  },
];

/** Spec section 2: the two switches and the Confluence spaces to filter, saved together. */
export function OtherSettingsSection() {
  const settings = useCustomerSettings();

  return (
    <Stack space="space.200">
      <Heading size="medium" as="h2">
        Other settings
      </Heading>
      {settings.data ? <SettingsForm initial={settings.data} /> : settings.isLoading ? <Spinner label="Loading settings" /> : null}
    </Stack>
  );
}

function SettingsForm({ initial }: { initial: CustomerSettings }) {
  const save = useSaveCustomerSettings();
  const spacesId = useId();
  const { control, handleSubmit, formState, reset } = useForm<CustomerSettings, unknown, z.output<typeof CustomerSettingsFormSchema>>({
    resolver: zodResolver(CustomerSettingsFormSchema),
    defaultValues: initial,
    mode: "all",
  });

  const submit = handleSubmit(async (values) => {
    await save.mutateAsync(values).then(() => reset({ ...initial, ...values }), failureShown);
  });

  return (
    <form
      aria-label="Other settings"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack space="space.200">
        {SWITCHES.map((item) => (
          <Controller
            key={item.name}
            control={control}
            name={item.name}
            render={({ field }) => (
              <Stack space="space.0">
                <Inline space="space.100" alignBlock="center">
                  <Toggle
                    id={`${spacesId}-${item.name}`}
                    isChecked={field.value}
                    onChange={(event) => field.onChange(event.target.checked)}
                    isDisabled={save.isPending}
                  />
                  <Label htmlFor={`${spacesId}-${item.name}`}>{item.label}</Label>
                </Inline>
                <HelperMessage>{item.help}</HelperMessage>
              </Stack>
            )}
          />
        ))}
        <Controller
          control={control}
          name="confluence_spaces_to_filter"
          render={({ field, fieldState }) => (
            <Stack space="space.050">
              <Label htmlFor={spacesId}>Confluence spaces to filter</Label>
              <div style={{ maxWidth: 480 }}>
                <Textfield
                  {...field}
                  id={spacesId}
                  placeholder="e.g. DOCS,ENG"
                  maxLength={MAX_SPACES_TO_FILTER_LENGTH + 1}
                  isInvalid={fieldState.invalid}
                  isDisabled={save.isPending}
                />
              </div>
              {fieldState.error ? (
                <ErrorMessage>{fieldState.error.message}</ErrorMessage>
              ) : (
                <HelperMessage>
                  Comma-separated space keys. Linking Confluence content then only offers pages of these spaces; leave empty to offer every
                  space.
                </HelperMessage>
              )}
            </Stack>
          )}
        />
        <Inline>
          <Button type="submit" appearance="primary" isDisabled={!formState.isValid} isLoading={save.isPending}>
            Save settings
          </Button>
        </Inline>
      </Stack>
    </form>
  );
}
