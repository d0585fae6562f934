import { z } from 'zod';

/** Platform ids exceed 2^53, so they travel as decimal strings everywhere. */
export const Snowflake = z
  .string()
  .regex(/^\d{1,20}$/, 'must be a numeric id string')
  .describe('A chat-platform id (snowflake) as a decimal string');
export type Snowflake = z.infer<typeof Snowflake>;

/**
 * Ids this product mints itself (tickets, subjects, panels, templates, files, subscriptions…):
 * opaque strings, never parsed. Each kind gets its own named alias.
 */
export const opaqueId = (what: string) => z.string().min(1).max(64).describe(`${what} id (opaque string)`);
export const SubjectId = opaqueId('Ticket subject');
export type SubjectId = z.infer<typeof SubjectId>;
export const TicketId = opaqueId('Ticket');
export type TicketId = z.infer<typeof TicketId>;

/** An emoji as buttons, select options and reactions carry it: a custom emoji has an id, a unicode one only a name. */
export const EmojiRef = z
  .object({
    id: Snowflake.nullable().default(null).describe('Custom emoji id; null for a unicode emoji. Default: null'),
    name: z.string().min(1).max(100).nullable().default(null).describe('The unicode emoji itself, or the custom emoji name. Default: null'),
    animated: z.boolean().optional(),
  })
  .refine((e) => e.id !== null || e.name !== null, { message: 'An emoji needs an id or a name' });
export type EmojiRef = z.infer<typeof EmojiRef>;

/** The answer of a call that returns a file: the bytes, not JSON. */
export const Binary = z.unknown().describe('The file bytes');

export const IsoDateTime = z.iso.datetime({ offset: true }).describe('ISO-8601 date and time');
export const IsoDate = z.iso.date().describe('A calendar date, YYYY-MM-DD');

export const IntegrationType = z.enum(['Discord']);
export type IntegrationType = z.infer<typeof IntegrationType>;

export const ServerRole = z.enum(['Owner', 'Admin', 'Staff', 'Member']);
export type ServerRole = z.infer<typeof ServerRole>;

export const PlanType = z.enum(['free', 'premium', 'enterprise']);
export type PlanType = z.infer<typeof PlanType>;

export const TimeUnit = z.enum(['seconds', 'minutes', 'hours', 'days']);
export type TimeUnit = z.infer<typeof TimeUnit>;

export const TimeSpan = z.object({
  time: z.number().int().min(0),
  unit: TimeUnit,
});
export type TimeSpan = z.infer<typeof TimeSpan>;

/** Query numbers arrive as strings; these coerce and bound them. */
export const PageQuery = z.object({
  Page: z.coerce.number().int().min(1).default(1).describe('1-based page number'),
  Amount: z.coerce.number().int().min(1).max(1000).default(100).describe('Elements per page'),
});

export const pagedResult = <T extends z.ZodType>(element: T) =>
  z.object({
    page: z.number().int(),
    maxPage: z.number().int(),
    elements: z.array(element),
  });
export type PagedResult<T> = { page: number; maxPage: number; elements: T[] };

export const ServerIdParams = z.object({ serverId: Snowflake });

/** The JSON body of every error answer. `field` names the offending input when there is one. */
export const ErrorBody = z.object({
  statusCode: z.number().int(),
  error: z.string().describe('HTTP reason phrase'),
  code: z.string().describe('Stable machine-readable error code'),
  message: z.string().describe('Human-readable explanation'),
  field: z.string().optional().describe('The request field that failed validation, in dot notation'),
  issues: z
    .array(z.object({ field: z.string(), message: z.string() }))
    .optional()
    .describe('Every validation problem found'),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const Empty = z.null().describe('No content');

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One call of a service: the server declares its route from it and the web client calls it
 * through it, so the two can never disagree on a path or a shape.
 */
export interface CallDef {
  method: HttpMethod;
  /** Fastify-style path relative to the service base, e.g. `/servers/:serverId/roles`. */
  path: string;
  summary: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** `null` for calls that answer 204 No Content. */
  response: z.ZodType | null;
  /** Status of a successful answer; 200 unless stated. */
  status?: number;
  /** Body sent as multipart form data rather than JSON. */
  multipart?: boolean;
  /** The answer is a file rather than JSON. */
  binary?: boolean;
}

export const defineCall = <const C extends CallDef>(call: C): C => call;

export type CallParams<C extends CallDef> = C['params'] extends z.ZodObject ? z.input<C['params']> : undefined;
export type CallQuery<C extends CallDef> = C['query'] extends z.ZodObject ? z.input<C['query']> : undefined;
export type CallBody<C extends CallDef> = C['body'] extends z.ZodType ? z.input<C['body']> : undefined;
export type CallResponse<C extends CallDef> = C['response'] extends z.ZodType ? z.output<C['response']> : void;

/** A boolean in a query string: `true`/`false` (or `1`/`0`); `z.coerce.boolean` would read "false" as true. */
export const BooleanQuery = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');
