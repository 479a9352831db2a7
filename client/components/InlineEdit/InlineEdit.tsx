import { IconButton } from "@atlaskit/button/new";
import { ErrorMessage } from "@atlaskit/form";
import CheckMarkIcon from "@atlaskit/icon/core/check-mark";
import CrossIcon from "@atlaskit/icon/core/cross";
import { Box, Inline, Pressable, xcss } from "@atlaskit/primitives";
import Textfield from "@atlaskit/textfield";
import VisuallyHidden from "@atlaskit/visually-hidden";
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useMemo, useRef, useState } from "react";
import { Controller, type Resolver, useForm } from "react-hook-form";
import { z } from "zod";

const readViewStyles = xcss({
  display: "block",
  width: "100%",
  textAlign: "start",
  paddingBlock: "space.100",
  paddingInline: "space.075",
  borderRadius: "radius.medium",
  backgroundColor: "color.background.neutral.subtle",
  ":hover": { backgroundColor: "color.background.neutral.subtle.hovered" },
});

export type InlineEditProps<Output> = {
  /** The field's name for assistive technology ("Name of Safety requirement"). */
  label: string;
  /** The value as it is saved, shown until the person edits it. */
  value: string;
  /** The rules the server checks the value with (common/), so the message shows at the field before any request. */
  schema: z.ZodType<Output>;
  /** Saves the value as the schema reads it; a rejection (its toast already shown) keeps the field open to try again. */
  onConfirm(value: Output): Promise<unknown>;
};

/**
 * A value that turns into a text field on a click (or Enter on it): Enter or the confirm button
 * saves, Escape or cancel goes back to the value as it was, and leaving the field saves it when it
 * is valid, as Atlaskit's inline edit did. Validation is the form's (react-hook-form + zod), its
 * message under the field; while the save runs the field waits. An unchanged value saves nothing.
 */
export function InlineEdit<Output>(props: InlineEditProps<Output>) {
  const [isEditing, setEditing] = useState(false);
  const readView = useRef<HTMLButtonElement>(null);
  // Closed with the keyboard or its buttons, focus goes back to the value; left by a click elsewhere, it stays there.
  const returnFocus = useRef(false);
  useEffect(() => {
    if (isEditing || !returnFocus.current) return;
    returnFocus.current = false;
    readView.current?.focus();
  }, [isEditing]);
  if (isEditing) {
    return (
      <EditView
        {...props}
        onDone={(refocus) => {
          returnFocus.current = refocus;
          setEditing(false);
        }}
      />
    );
  }
  return (
    <Pressable ref={readView} xcss={readViewStyles} onClick={() => setEditing(true)}>
      <span>{props.value}</span> <VisuallyHidden>Edit {props.label.toLowerCase()}</VisuallyHidden>
    </Pressable>
  );
}

type EditValues = { value: string };

function EditView<Output>({ label, value, schema, onConfirm, onDone }: InlineEditProps<Output> & { onDone(returnFocus: boolean): void }) {
  // The field holds text, which a schema of any input reads (the level's coerces it to a number).
  const resolver = useMemo(() => zodResolver(z.object({ value: schema })) as Resolver<EditValues, unknown, { value: Output }>, [schema]);
  const { control, handleSubmit, getValues, formState } = useForm<EditValues, unknown, { value: Output }>({
    resolver,
    defaultValues: { value },
    mode: "onChange",
  });
  const { isSubmitting } = formState;
  // Set while a save runs and once the view closes: a blur then (the field disabled or removed) saves nothing twice.
  const settled = useRef(false);
  const save = (returnFocus: boolean) =>
    handleSubmit(async (parsed) => {
      if (getValues("value").trim() === value) return close(returnFocus);
      settled.current = true;
      try {
        await onConfirm(parsed.value);
        close(returnFocus);
      } catch {
        // The change's own toast has told the person why; the field stays open with what they typed.
        settled.current = false;
      }
    })();
  const close = (returnFocus: boolean) => {
    settled.current = true;
    onDone(returnFocus);
  };
  return (
    <form
      aria-label={`Edit ${label.toLowerCase()}`}
      onSubmit={(event) => {
        event.preventDefault();
        void save(true);
      }}
      onKeyDown={(event) => {
        if (event.key !== "Escape" || settled.current) return;
        event.preventDefault();
        close(true);
      }}
      onBlur={(event) => {
        if (!settled.current && !event.currentTarget.contains(event.relatedTarget)) void save(false);
      }}
    >
      <Controller
        control={control}
        name="value"
        render={({ field, fieldState }) => (
          <>
            <Textfield {...field} aria-label={label} autoFocus isInvalid={fieldState.invalid} isDisabled={isSubmitting} />
            {fieldState.error ? <ErrorMessage>{fieldState.error.message}</ErrorMessage> : null}
          </>
        )}
      />
      {/* A press on a button keeps the focus in the field: in browsers that do not focus buttons, leaving the field would save first. */}
      <div role="presentation" onMouseDown={(event) => event.preventDefault()}>
        <Box paddingBlockStart="space.050">
          <Inline space="space.050" alignInline="end">
            <IconButton type="submit" icon={CheckMarkIcon} label="Confirm" spacing="compact" isLoading={isSubmitting} />
            <IconButton icon={CrossIcon} label="Cancel" spacing="compact" isDisabled={isSubmitting} onClick={() => close(true)} />
          </Inline>
        </Box>
      </div>
    </form>
  );
}
