// The part of the Adaptive Cards 1.5 schema (adaptivecards.io/explorer) the cards use, written out
// from the published element reference, strict: an unknown property, element, enum value or a
// missing required one is an error, as the Teams client's parser treats it (the element is dropped).
import { Ajv2020 } from 'ajv/dist/2020.js';
import { referenceProblem } from './adaptive-card-reference.js';

const textEnums = {
  color: { enum: ['Default', 'Dark', 'Light', 'Accent', 'Good', 'Warning', 'Attention'] },
  size: { enum: ['Default', 'Small', 'Medium', 'Large', 'ExtraLarge'] },
  weight: { enum: ['Default', 'Lighter', 'Bolder'] },
  isSubtle: { type: 'boolean' },
};
const common = {
  id: { type: 'string' },
  separator: { type: 'boolean' },
  spacing: { enum: ['Default', 'None', 'Small', 'Medium', 'Large', 'ExtraLarge', 'Padding'] },
  isVisible: { type: 'boolean' },
};

const executeAction = {
  type: 'object',
  required: ['type'],
  additionalProperties: false,
  properties: {
    type: { const: 'Action.Execute' },
    title: { type: 'string' },
    verb: { type: 'string' },
    data: { type: ['object', 'string'] },
    style: { enum: ['default', 'positive', 'destructive'] },
    id: { type: 'string' },
    associatedInputs: { enum: ['Auto', 'None'] },
  },
};
const openUrlAction = {
  type: 'object',
  required: ['type', 'url'],
  additionalProperties: false,
  properties: {
    type: { const: 'Action.OpenUrl' },
    title: { type: 'string' },
    url: { type: 'string', format: 'uri' },
    style: { enum: ['default', 'positive', 'destructive'] },
    id: { type: 'string' },
  },
};

export const ADAPTIVE_CARD_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $defs: {
    action: { oneOf: [executeAction, openUrlAction] },
    element: {
      oneOf: [
        {
          type: 'object',
          required: ['type', 'text'],
          additionalProperties: false,
          properties: {
            ...common,
            ...textEnums,
            type: { const: 'TextBlock' },
            text: { type: 'string' },
            wrap: { type: 'boolean' },
            maxLines: { type: 'number' },
            horizontalAlignment: { enum: ['Left', 'Center', 'Right'] },
            style: { enum: ['default', 'heading'] },
          },
        },
        {
          type: 'object',
          required: ['type', 'inlines'],
          additionalProperties: false,
          properties: {
            ...common,
            type: { const: 'RichTextBlock' },
            horizontalAlignment: { enum: ['Left', 'Center', 'Right'] },
            inlines: {
              type: 'array',
              items: {
                type: 'object',
                required: ['type', 'text'],
                additionalProperties: false,
                properties: {
                  ...textEnums,
                  type: { const: 'TextRun' },
                  text: { type: 'string' },
                  italic: { type: 'boolean' },
                  strikethrough: { type: 'boolean' },
                  highlight: { type: 'boolean' },
                  underline: { type: 'boolean' },
                  fontType: { enum: ['Default', 'Monospace'] },
                },
              },
            },
          },
        },
        {
          type: 'object',
          required: ['type', 'items'],
          additionalProperties: false,
          properties: {
            ...common,
            type: { const: 'Container' },
            style: { enum: ['default', 'emphasis', 'good', 'attention', 'warning', 'accent'] },
            items: { type: 'array', items: { $ref: '#/$defs/element' } },
          },
        },
        {
          type: 'object',
          required: ['type', 'actions'],
          additionalProperties: false,
          properties: {
            ...common,
            type: { const: 'ActionSet' },
            actions: { type: 'array', items: { $ref: '#/$defs/action' } },
          },
        },
        {
          type: 'object',
          required: ['type', 'id'],
          additionalProperties: false,
          properties: {
            ...common,
            type: { const: 'Input.Text' },
            placeholder: { type: 'string' },
            maxLength: { type: 'number' },
            isMultiline: { type: 'boolean' },
            label: { type: 'string' },
            value: { type: 'string' },
          },
        },
      ],
    },
  },
  type: 'object',
  required: ['type', 'version'],
  additionalProperties: false,
  properties: {
    type: { const: 'AdaptiveCard' },
    $schema: { type: 'string' },
    version: { enum: ['1.0', '1.1', '1.2', '1.3', '1.4', '1.5'] },
    body: { type: 'array', items: { $ref: '#/$defs/element' } },
    actions: { type: 'array', items: { $ref: '#/$defs/action' } },
    refresh: {
      type: 'object',
      required: ['action'],
      additionalProperties: false,
      properties: {
        action: executeAction,
        userIds: { type: 'array', items: { type: 'string' }, maxItems: 60 },
        expires: { type: 'string' },
      },
    },
    fallbackText: { type: 'string' },
    lang: { type: 'string' },
  },
} as const;

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
const validate = ajv.compile(ADAPTIVE_CARD_SCHEMA);

/**
 * Why `card` is not a valid Adaptive Card, or `undefined`: the schema subset above, then Microsoft's
 * reference parser (zero parse events, zero validation failures, every property read back).
 */
export function cardProblem(card: unknown): string | undefined {
  if (!validate(card)) return ajv.errorsText(validate.errors?.slice(0, 3));
  return referenceProblem(card);
}
