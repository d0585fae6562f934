import { ComponentType, TextInputStyle } from 'discord-api-types/v10';
import type { APIModalInteractionResponseCallbackComponent, APITextInputComponent } from 'discord-api-types/v10';
import { checkArray, checkString, isRecord } from './form-validation.ts';
import type { Path, Problems } from './form-validation.ts';

export interface ModalData {
  customId: string;
  title: string;
  components: APIModalInteractionResponseCallbackComponent[];
}

/** A text input as a member meets it: the label comes from its Label wrapper or (legacy) from itself. */
export interface ModalTextInput {
  input: APITextInputComponent;
  label: string;
  description: string | null;
}

const MAX_TEXT = 4000;

/**
 * Validates a MODAL (type 9) response's `data`, reporting paths under `data` as the callback
 * endpoint does. Text inputs may sit in action rows (the legacy layout) or in Label components;
 * Text Display components may explain the form. Other modal components (selects, file uploads)
 * are refused, because the sandbox cannot let a member fill them in.
 */
export function validateModal(value: unknown, problems: Problems): ModalData | null {
  const at = (...rest: Path): Path => ['data', ...rest];
  if (!isRecord(value)) {
    problems.add(at(), value === undefined ? 'BASE_TYPE_REQUIRED' : 'DICT_TYPE_CONVERT', value === undefined ? 'This field is required' : 'Only dictionaries may be used in a DictType');
    return null;
  }
  const customId = checkString(problems, value.custom_id, at('custom_id'), 100, true);
  const title = checkString(problems, value.title, at('title'), 45, true);
  const list = checkArray(problems, value.components, at('components'), 5);
  if (!list) problems.add(at('components'), 'BASE_TYPE_REQUIRED', 'This field is required');
  else if (list.length === 0) problems.add(at('components'), 'BASE_TYPE_MIN_LENGTH', 'Must be 1 or more in length.');
  const customIds = new Set<string>();
  const checkInput = (raw: unknown, path: Path, legacy: boolean): void => {
    if (!isRecord(raw)) {
      problems.add(path, 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
      return;
    }
    if (raw.type !== ComponentType.TextInput) {
      problems.add([...path, 'type'], 'SANDBOX_UNSUPPORTED_COMPONENT', 'The sandbox only supports text inputs (type 4) in modals');
      return;
    }
    const id = checkString(problems, raw.custom_id, [...path, 'custom_id'], 100, true);
    if (id !== undefined) {
      if (customIds.has(id)) problems.add([...path, 'custom_id'], 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
      customIds.add(id);
    }
    if (raw.style !== TextInputStyle.Short && raw.style !== TextInputStyle.Paragraph) {
      problems.add([...path, 'style'], 'BASE_TYPE_CHOICES', 'Value must be one of {1, 2}.');
    }
    // In the legacy layout the input carries its own label; inside a Label component it must not.
    if (legacy) checkString(problems, raw.label, [...path, 'label'], 45, true);
    checkString(problems, raw.placeholder, [...path, 'placeholder'], 100);
    checkString(problems, raw.value, [...path, 'value'], MAX_TEXT);
    for (const [key, min, max] of [['min_length', 0, MAX_TEXT], ['max_length', 1, MAX_TEXT]] as const) {
      const n = raw[key];
      if (n === undefined || n === null) continue;
      if (typeof n !== 'number' || !Number.isInteger(n)) problems.add([...path, key], 'NUMBER_TYPE_COERCE', `Value "${String(n)}" is not int.`);
      else if (n < min) problems.add([...path, key], 'NUMBER_TYPE_MIN', `int value should be greater than or equal to ${min}.`);
      else if (n > max) problems.add([...path, key], 'NUMBER_TYPE_MAX', `int value should be less than or equal to ${max}.`);
    }
    if (raw.required !== undefined && typeof raw.required !== 'boolean') problems.add([...path, 'required'], 'BASE_TYPE_BOOLEAN', 'Must be either true or false.');
  };
  (list ?? []).forEach((row, i) => {
    const path = at('components', i);
    if (!isRecord(row)) {
      problems.add(path, 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
      return;
    }
    if (row.type === ComponentType.ActionRow) {
      const children = checkArray(problems, row.components, [...path, 'components'], 1);
      if (!children || children.length === 0) problems.add([...path, 'components'], 'BASE_TYPE_MIN_LENGTH', 'Must be 1 or more in length.');
      children?.slice(0, 1).forEach((child) => checkInput(child, [...path, 'components', 0], true));
    } else if (row.type === ComponentType.Label) {
      checkString(problems, row.label, [...path, 'label'], 45, true);
      checkString(problems, row.description, [...path, 'description'], 100);
      checkInput(row.component, [...path, 'component'], false);
    } else if (row.type === ComponentType.TextDisplay) {
      checkString(problems, row.content, [...path, 'content'], MAX_TEXT, true);
    } else {
      problems.add([...path, 'type'], 'UNION_TYPE_CHOICES', 'Value of field "type" must be one of (1, 10, 18).');
    }
  });
  if (problems.any || customId === undefined || title === undefined || !list) return null;
  // Components get sequential numeric ids, as Discord assigns them, so the submit can echo them.
  const components = structuredClone(list) as APIModalInteractionResponseCallbackComponent[];
  let nextId = 1;
  const assign = (node: { id?: number }) => {
    if (node.id === undefined) node.id = nextId;
    nextId = Math.max(nextId, node.id) + 1;
  };
  for (const c of components) {
    assign(c);
    if (c.type === ComponentType.ActionRow) c.components.forEach(assign);
    if (c.type === ComponentType.Label) assign(c.component);
  }
  return { customId, title, components };
}

/** The text inputs of a validated modal, in order, with the label a member reads. */
export function modalTextInputs(components: readonly APIModalInteractionResponseCallbackComponent[]): ModalTextInput[] {
  const inputs: ModalTextInput[] = [];
  for (const c of components) {
    if (c.type === ComponentType.ActionRow) {
      for (const input of c.components) {
        if (input.type === ComponentType.TextInput) inputs.push({ input, label: input.label ?? input.custom_id, description: null });
      }
    } else if (c.type === ComponentType.Label && c.component.type === ComponentType.TextInput) {
      inputs.push({ input: c.component, label: c.label, description: c.description ?? null });
    }
  }
  return inputs;
}
