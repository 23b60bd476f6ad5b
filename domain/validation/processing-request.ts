import { z } from 'zod';
import { idRegex } from '../ids.js';
import { WEBHOOK_ID_PREFIX } from '../webhooks.js';
import { DomainError } from '../errors.js';
import { NOT_BLANK, trimmedLength } from './patterns.js';
import {
  FILE_OPERATIONS,
  MEDIA_OPERATIONS,
  MEDIA_TOOL_MAX_SECONDS,
  MIN_TRIM_SECONDS,
  VIDEO_HEIGHTS,
  type OperationId,
} from '../pricing.js';
import { BATCH_LIMITS, DEFAULT_WEBHOOK_MODE, WEBHOOK_MODES, type WebhookMode } from '../batches.js';
import { OPERATION_RULES } from '../operations.js';
import {
  DEFAULT_TRANSCRIPT_FORMAT,
  SPEECH_LANGUAGE_PATTERN,
  SPEECH_OPERATIONS,
  TRANSCRIPT_FORMATS,
  type TranscriptFormat,
} from '../speech.js';

/**
 * The request body of `POST /v1/estimate` and `POST /v1/jobs` (spec section 2), validated strictly: unknown
 * fields and unknown options are rejected, so a typo never silently changes what runs.
 */
export const RESERVED_FIELD_NAMES = ['items', 'warnings', 'evidence', 'review_required', 'human_review'] as const;

/** The OCR operations (docs/processing.md, "OCR"; the identifiers are this service's, the spec does not show them). */
export const OCR_OPERATIONS = ['ocr-text', 'ocr-docx', 'ocr-pdf'] as const;
/** Operations this release runs (every operation of the spec). */
export const AVAILABLE_OPERATIONS = [
  ...FILE_OPERATIONS,
  ...MEDIA_OPERATIONS,
  ...OCR_OPERATIONS,
  ...SPEECH_OPERATIONS,
  'flow-extract',
] as const;
export const ALL_OPERATIONS: readonly OperationId[] = [
  ...FILE_OPERATIONS,
  ...MEDIA_OPERATIONS,
  'ocr-text',
  'ocr-docx',
  'ocr-pdf',
  'flow-extract',
  'transcribe',
  'meeting',
];

/**
 * The rules below are written as lengths and regular expressions, not `.refine`s, so that they reach the generated
 * OpenAPI document (api/http/contract.ts) and the fuzzer and clients see the same rules the server applies. The
 * expressions read the same in ECMAScript and Python's `re` (docs/operations.md, "Rules must be writable").
 */
/** The control characters (`\p{Cc}`: C0, DEL and C1), as a character class body. */
const CONTROL = String.raw`\x00-\x1f\x7f-\x9f`;
/** One page or range of `pages` as `parsePageRanges` reads it (digits, optionally `-` digits, spaces around). */
const PAGE_ITEM = String.raw`\s*[0-9]{1,5}(?:-[0-9]{1,5})?\s*`;
/** Blank (every page, where that is allowed) or page numbers and ranges separated by commas. */
const PAGES_PATTERN = new RegExp(`^(?:\\s*|${PAGE_ITEM}(?:,${PAGE_ITEM})*)$`);
const pages = z
  .string()
  .max(200)
  .regex(PAGES_PATTERN, 'pages must be page numbers or ranges separated by commas, e.g. 1-3,5')
  .meta({
    description:
      'Page numbers or ranges separated by commas, e.g. `1-3,5`; checked against the real page count. Empty or absent selects every page.',
  });
const requiredPages = z
  .string()
  .max(200)
  .regex(PAGES_PATTERN, 'pages must be page numbers or ranges separated by commas, e.g. 1-3,5')
  .regex(NOT_BLANK, 'pages must select at least one page, e.g. 1-3,5')
  .meta({
    description:
      'Page numbers or ranges separated by commas, e.g. `1-3,5`; at least one page, checked against the real page count.',
  });
const password = z
  .string()
  .min(1, 'password must be 1 to 128 characters')
  .max(128, 'password must be 1 to 128 characters')
  .regex(/^[^\r\n]*$/, 'password cannot contain line breaks')
  .meta({
    writeOnly: true,
    description: 'Forwarded privately to the PDF worker; never stored after the job ends, never shown in the job.',
  });
const imageFormat = z.enum(['jpg', 'png', 'webp']);

/** `U+0007` for a code point. */
export const codePointLabel = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Watermark text: one line of assigned, printable characters. Control characters (line breaks and tabs included),
 * unassigned and private-use code points and lone surrogates are refused here; which of the rest a shipped font
 * can draw is checked when the request is quoted (adapters/media/pdf/watermark-fonts.ts).
 */
const WATERMARK_MAX = 200;
/** No control character once the surrounding whitespace (tabs and line breaks among it) is trimmed. */
const NO_CONTROL = new RegExp(String.raw`^\s*(?:[^\s${CONTROL}](?:[^${CONTROL}]*[^\s${CONTROL}])?\s*)?$`);
const watermarkText = z
  .string()
  .regex(NOT_BLANK, 'text is required')
  .regex(trimmedLength(0, WATERMARK_MAX), `text must be at most ${WATERMARK_MAX} characters`)
  .regex(NO_CONTROL, {
    error: (issue) =>
      `text cannot contain control characters (${codePointLabel(/\p{Cc}/u.exec(String(issue.input).trim())?.[0] ?? '\0')})`,
  })
  .trim()
  .meta({
    description:
      `1 to ${WATERMARK_MAX} characters after trimming surrounding whitespace, on one line: no control characters. Drawn with embedded fonts: ` +
      'Latin, Greek, Cyrillic and many symbols (DejaVu Sans), Chinese, Japanese and Korean (Droid Sans Fallback). Unassigned and private-use ' +
      'code points, characters no font has, and right-to-left scripts (not drawn yet) are refused with 422 naming `options.text`.',
  })
  // Unassigned, private-use and surrogate code points: Unicode property classes, which JSON Schema's regular
  // expressions do not share, so this one rule stays a refinement (the description says it).
  .superRefine((text, ctx) => {
    const undrawable = /[\p{Cn}\p{Co}\p{Cs}]/u.exec(text);
    if (undrawable)
      ctx.addIssue({
        code: 'custom',
        message: `text cannot contain unassigned, private-use or surrogate code points (${codePointLabel(undrawable[0])})`,
      });
  });

/**
 * The Tesseract languages the setup installs (scripts/setup.sh, the Dockerfile: Debian's `tesseract-ocr-<code>`) and
 * OCR_LANGUAGES names by default; the first is the `language` of a request that names none.
 */
export const DEFAULT_OCR_LANGUAGES = ['eng', 'deu', 'fra', 'spa', 'ita', 'por', 'nld'] as const;
/** Languages one OCR request may join with `+` (OCR_LANGUAGE_PATTERN). */
export const MAX_OCR_LANGUAGES = 3;
/**
 * The OCR `language`: a Tesseract language code (`eng`, `deu`, `chi_sim`), or up to three joined by `+`
 * (`eng+deu`). Which languages this server has installed is checked when the request is quoted (OCR_LANGUAGES).
 */
export const OCR_LANGUAGE_PATTERN = `^[a-z]{3}(_[a-z]{2,8})?(\\+[a-z]{3}(_[a-z]{2,8})?){0,${MAX_OCR_LANGUAGES - 1}}$`;
const ocrOptions = z.strictObject({
  language: z
    .string()
    .max(40)
    .regex(
      new RegExp(OCR_LANGUAGE_PATTERN),
      'language must be a Tesseract language code such as eng, or up to three joined by + (eng+deu)',
    )
    .meta({
      description:
        'The language of the text: a Tesseract language code (`eng`), or up to three joined by `+` (`eng+deu`). Default: the first of the ' +
        "server's installed languages (`eng` unless configured). A language this server has not installed is refused with 422 naming `options.language` " +
        'and listing the installed ones.',
    })
    .optional(),
});
/**
 * A trim: `start` (default 0) and `end`, seconds of the source (millisecond precision is kept). That `end` comes at
 * least MIN_TRIM_SECONDS after `start` and within the measured duration is checked when quoting
 * (domain/media-trim.ts), with the source at hand.
 */
const trimSeconds = z
  .number()
  .finite()
  .max(MEDIA_TOOL_MAX_SECONDS, `file-tool media are at most ${MEDIA_TOOL_MAX_SECONDS} s long`);
const trim = (kind: 'audio' | 'video') =>
  z.strictObject({
    start: trimSeconds
      .min(0, 'start is at least 0')
      .meta({
        description: `Seconds from the beginning of the ${kind} where the kept part starts (default 0); below the measured duration.`,
      })
      .optional(),
    end: trimSeconds.min(MIN_TRIM_SECONDS, `end is at least ${MIN_TRIM_SECONDS}`).meta({
      description: `Seconds from the beginning where the kept part ends: at least ${MIN_TRIM_SECONDS} s after \`start\`, at most the measured duration (the upload's \`duration_seconds\`); otherwise 422 naming \`options.end\`, before quoting.`,
    }),
  });
/**
 * The speech `language`: an ISO 639-1 code the engine should assume instead of detecting one. Which codes the engine
 * knows is checked when the request is quoted.
 */
const speechLanguage = z
  .string()
  .max(3)
  .regex(new RegExp(SPEECH_LANGUAGE_PATTERN), 'language must be an ISO 639-1 code in lower case, such as en, de or ja')
  .meta({
    description:
      'The spoken language as an ISO 639-1 code (`en`, `de`, `ja`; `haw` and `yue` for the two languages without one). Default: detected ' +
      "from the audio (per chunk of a long file; the transcript's `language` is the one most of its words were heard in). A code the engine does " +
      'not know is refused with 422 naming `options.language`.',
  });
/** `output_format` in lower case, or in capitals as the spec writes them (`SRT`). */
const TRANSCRIPT_FORMAT_NAMES = [...TRANSCRIPT_FORMATS, ...TRANSCRIPT_FORMATS.map((f) => f.toUpperCase())];
const transcriptFormat = z
  .string()
  .regex(
    new RegExp(`^(?:${TRANSCRIPT_FORMAT_NAMES.join('|')})$`),
    `output_format must be one of ${TRANSCRIPT_FORMATS.join(', ')}`,
  )
  .meta({
    description:
      `The result file (default \`${DEFAULT_TRANSCRIPT_FORMAT}\`; capitals accepted): \`txt\` speaker-labelled paragraphs, \`docx\` the same as a Word document, ` +
      '`srt` and `vtt` subtitles (at most 2 lines of 42 characters and 6 s per cue, never overlapping, speaker labels), `json` the `TranscriptJson` ' +
      'schema (`TranscriptJson`: language, duration, segments with speaker, words with start, end and confidence).',
  })
  .transform((f) => f.toLowerCase() as TranscriptFormat);
const mediaLevel = z.strictObject({
  level: z
    .enum(['balanced'], { message: 'level must be balanced' })
    .meta({ description: 'The only level (default).' })
    .optional(),
});

/** Options of each operation of this release; every object is strict. */
export const OPTION_SCHEMAS = {
  'pdf-extract': z.strictObject({ pages: requiredPages }),
  'pdf-delete': z.strictObject({ pages: requiredPages }),
  'pdf-rotate': z.strictObject({
    angle: z.literal([90, 180, 270], { message: 'angle must be 90, 180 or 270' }),
    pages: pages.optional(),
  }),
  'pdf-protect': z.strictObject({ password }),
  'pdf-unlock': z.strictObject({ password }),
  'pdf-watermark': z.strictObject({ text: watermarkText, pages: pages.optional() }),
  'pdf-number': z.strictObject({
    start: z
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .meta({ description: 'Number printed on the first selected page (default 1); the others follow consecutively.' })
      .optional(),
    pages: pages.optional(),
  }),
  'pdf-merge': z.strictObject({}),
  'image-edit': z
    .strictObject({
      width: z.number().int().min(1).max(10_000).optional(),
      height: z.number().int().min(1).max(10_000).optional(),
      angle: z.number().int().min(-360).max(360).optional(),
      flip: z.enum(['horizontal', 'vertical', 'both']).optional(),
      format: imageFormat.optional(),
      crop: z
        .tuple([z.number().int().min(0), z.number().int().min(0), z.number().int().min(1), z.number().int().min(1)], {
          message: 'crop must be four integers: left, top, width, height',
        })
        .meta({
          description:
            "left, top, width, height in pixels of the image as displayed (the upload's `width` and `height`): left + width and top + height " +
            "at most the image's; a crop outside the image is refused with 422 naming `options.crop`, before quoting.",
        })
        .optional(),
    })
    .refine((o) => (o.width === undefined) === (o.height === undefined), {
      message: 'supply both width and height',
      path: ['width'],
    })
    .refine((o) => Object.keys(o).length > 0, {
      message: 'image-edit needs at least one of width+height, angle, flip, format, crop',
    })
    // The two refinements above, as the JSON Schema keywords that say them (zod has no such checks).
    .meta({
      minProperties: 1,
      dependentRequired: { width: ['height'], height: ['width'] },
      description:
        'At least one of width+height (both), angle, flip, format, crop. Applied as crop, rotate, flip, contain, encode; an output larger ' +
        'than its format holds (WebP 16383, JPEG 65535 pixels a side) is refused with 422 naming `options.format` (or `options.angle`), before quoting.',
    }),
  'image-compress': z.strictObject({
    format: imageFormat.optional(),
    level: z.enum(['balanced', 'strong']).optional(),
  }),
  webp: z.strictObject({}),
  'ocr-text': ocrOptions,
  'ocr-docx': ocrOptions,
  'ocr-pdf': ocrOptions,
  'audio-trim': trim('audio'),
  'video-trim': trim('video'),
  'video-rotate': z.strictObject({
    angle: z.literal([90, 180, 270], { message: 'angle must be 90, 180 or 270' }),
  }),
  'video-resize': z.strictObject({
    height: z.literal(VIDEO_HEIGHTS, { message: `height must be one of ${VIDEO_HEIGHTS.join(', ')}` }),
  }),
  'audio-compress': mediaLevel,
  'video-compress': mediaLevel,
  transcribe: z.strictObject({ output_format: transcriptFormat.optional(), language: speechLanguage.optional() }),
  meeting: z.strictObject({ language: speechLanguage.optional() }),
  // Field extraction takes its fields, instructions and workflow_id beside the options; no options in this release.
  'flow-extract': z.strictObject({}).meta({ description: 'No options in this release: `{}` or absent.' }),
} as const;

export type AvailableOperation = keyof typeof OPTION_SCHEMAS;
export type OperationOptions<O extends AvailableOperation> = z.infer<(typeof OPTION_SCHEMAS)[O]>;

const id = (prefix: string) => z.string().regex(idRegex(prefix), `must be a ${prefix}_ id`);

/** Not one of RESERVED_FIELD_NAMES in any case (each letter as a class of both cases: JSON Schema has no flags). */
const NOT_RESERVED_FIELD = new RegExp(
  `^(?!(?:${RESERVED_FIELD_NAMES.map((n) => [...n].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c)).join('')).join('|')})$)`,
);
/** A name of extraction `fields`. */
export const fieldName = z
  .string()
  .max(64, 'field names have at most 64 characters')
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'field names start with a letter and contain only letters, digits and underscores')
  .regex(NOT_RESERVED_FIELD, 'this field name is reserved');

/** Extraction `fields` (spec section 2): unique names, at most 30; shared by requests and saved workflows. */
export const extractionFields = z
  .array(fieldName)
  .max(30, 'at most 30 fields')
  .refine((f) => new Set(f.map((x) => x.toLowerCase())).size === f.length, 'field names must be unique')
  // Unique whatever the case is a refinement; JSON Schema's `uniqueItems` says the part it can (exact repeats).
  .meta({ uniqueItems: true });
/** Extraction `instructions`: optional free text. */
export const extractionInstructions = z.string().max(4000, 'instructions have at most 4,000 characters');

const requestBody = z.strictObject({
  operation: z.string(),
  upload_ids: z.array(id('upl')).min(1, 'upload_ids needs at least one upload').max(100).optional(),
  items: z.unknown().optional(),
  fields: z.unknown().optional(),
  instructions: z.unknown().optional(),
  options: z.record(z.string(), z.unknown()).optional(),
  max_credits: z.number().int().min(1).max(1_000_000_000).optional(),
  workflow_id: z.unknown().optional(),
  webhook_id: id(WEBHOOK_ID_PREFIX).optional(),
  webhook_mode: z.unknown().optional(),
});

/**
 * What an extraction reads (`flow-extract` only): the body's `fields` and `instructions`, or the saved workflow named by
 * `workflowId`, whose settings take precedence (resolved against the company's workflows when the request is quoted).
 */
export interface ExtractionSpec {
  fields: string[] | undefined;
  instructions: string | undefined;
  workflowId: string | undefined;
}

export interface JobRequest {
  operation: AvailableOperation;
  uploadIds: string[];
  options: Record<string, unknown>;
  /** `flow-extract`'s fields, instructions and saved workflow; null for every other operation. */
  extraction: ExtractionSpec | null;
  maxCredits: number | undefined;
  /** A `/v1` webhook of the company for the job's terminal event; checked against the database when quoting. */
  webhookId: string | undefined;
}

export interface BodyIssue {
  path: string;
  message: string;
}

const toIssues = (e: z.ZodError, prefix: string[] = []): BodyIssue[] =>
  e.issues.map((i) => ({ path: [...prefix, ...i.path.map(String)].join('.') || '(body)', message: i.message }));

function invalid(issues: BodyIssue[]): never {
  throw new DomainError(
    'validation_failed',
    `Invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    { issues },
  );
}

/** The saved workflow a request names (`wfl_…`); the quote resolves it against the company's workflows. */
export const workflowIdSchema = id('wfl');

/** `flow-extract`'s fields, instructions and workflow: fields (1 to 30) unless a saved workflow supplies them. */
function extractionSpec(
  b: { fields?: unknown; instructions?: unknown; workflow_id?: unknown },
  issues: BodyIssue[],
): ExtractionSpec {
  const spec: ExtractionSpec = { fields: undefined, instructions: undefined, workflowId: undefined };
  if (b.workflow_id !== undefined) {
    const w = workflowIdSchema.safeParse(b.workflow_id);
    if (w.success) spec.workflowId = w.data;
    else issues.push(...toIssues(w.error, ['workflow_id']));
  }
  if (b.fields !== undefined) {
    const f = extractionFields.min(1, 'fields needs at least one field name').safeParse(b.fields);
    if (f.success) spec.fields = f.data;
    else issues.push(...toIssues(f.error, ['fields']));
  } else if (b.workflow_id === undefined) {
    issues.push({
      path: 'fields',
      message: 'flow-extract needs fields (the names of the values to extract) or a workflow_id',
    });
  }
  if (b.instructions !== undefined) {
    const i = extractionInstructions.safeParse(b.instructions);
    if (i.success) spec.instructions = i.data;
    else issues.push(...toIssues(i.error, ['instructions']));
  }
  return spec;
}

/** The operation and its options, shared by job and batch bodies; problems are added to `issues`. */
function operationAndOptions(
  b: {
    operation: string;
    options?: Record<string, unknown> | undefined;
    fields?: unknown;
    instructions?: unknown;
    workflow_id?: unknown;
  },
  issues: BodyIssue[],
) {
  if (!(ALL_OPERATIONS as readonly string[]).includes(b.operation)) {
    issues.push({ path: 'operation', message: `unknown operation; one of ${AVAILABLE_OPERATIONS.join(', ')}` });
    invalid(issues);
  }
  if (!(b.operation in OPTION_SCHEMAS)) {
    issues.push({
      path: 'operation',
      message: `${b.operation} is not available yet; available: ${AVAILABLE_OPERATIONS.join(', ')}`,
    });
    invalid(issues);
  }
  const operation = b.operation as AvailableOperation;
  let extraction: ExtractionSpec | null = null;
  if (operation === 'flow-extract') {
    extraction = extractionSpec(b, issues);
  } else {
    if (b.fields !== undefined) issues.push({ path: 'fields', message: 'fields are only accepted by flow-extract' });
    if (b.instructions !== undefined)
      issues.push({ path: 'instructions', message: 'instructions are only accepted by flow-extract' });
    if (b.workflow_id !== undefined)
      issues.push({ path: 'workflow_id', message: 'saved workflows support document extraction only (flow-extract)' });
  }
  const options = OPTION_SCHEMAS[operation].safeParse(b.options ?? {});
  if (!options.success) issues.push(...toIssues(options.error, ['options']));
  return { operation, options: (options.success ? options.data : {}) as Record<string, unknown>, extraction };
}

/** The number of sources the operation takes, checked for one job (`path` names its `upload_ids`). */
function sourceIssues(operation: AvailableOperation, uploadIds: readonly string[], path: string): BodyIssue[] {
  const issues: BodyIssue[] = [];
  const sources = uploadIds.length;
  const rule = OPERATION_RULES[operation].sources;
  if (sources < rule.min || sources > rule.max) {
    const what =
      OPERATION_RULES[operation].sourceKinds.length === 1 && OPERATION_RULES[operation].sourceKinds[0] === 'pdf'
        ? 'PDFs'
        : 'sources';
    issues.push({
      path,
      message:
        rule.min === rule.max && rule.min === 1
          ? `${operation} takes exactly one source`
          : `${operation} takes ${rule.min} to ${rule.max} ${what}`,
    });
  }
  if (new Set(uploadIds).size !== sources) issues.push({ path, message: `${path} must not repeat an upload` });
  return issues;
}

/** What a job or estimate body with `items` is told: one child job per item is a batch's form. */
const ITEMS_ARE_FOR_BATCHES =
  'items is for batches: send this body to POST /v1/batches (or POST /v1/batches/estimate), one child job per item; a job takes its sources in upload_ids';

/** Validates a job or estimate body; every problem is reported at once as 422 with `issues`. */
export function parseJobRequest(body: unknown): JobRequest {
  const parsed = requestBody.safeParse(body);
  if (!parsed.success) invalid(toIssues(parsed.error));
  const b = parsed.data;
  const issues: BodyIssue[] = [];
  // A body in the batch form is told where it belongs, rather than that its upload_ids are missing.
  if (b.items !== undefined) issues.push({ path: 'items', message: ITEMS_ARE_FOR_BATCHES });
  else if (b.upload_ids === undefined)
    issues.push({ path: 'upload_ids', message: 'a job needs upload_ids: the uploads it reads' });
  if (b.webhook_mode !== undefined)
    issues.push({ path: 'webhook_mode', message: 'webhook_mode is only accepted by batches' });
  const { operation, options, extraction } = operationAndOptions(b, issues);
  if (b.upload_ids) issues.push(...sourceIssues(operation, b.upload_ids, 'upload_ids'));
  if (issues.length || !b.upload_ids) invalid(issues);
  return {
    operation,
    uploadIds: b.upload_ids,
    options,
    extraction,
    maxCredits: b.max_credits,
    webhookId: b.webhook_id,
  };
}

/** One item of a batch: the sources of one child job, and the body path naming them (`items.3.upload_ids`, `upload_ids.3`). */
export interface BatchItem {
  uploadIds: string[];
  /** The path of the item's sources in the body: `items.<i>.upload_ids` or, with the shorthand, `upload_ids`. */
  path: string;
  /** The body path of the item's j-th source (`items.3.upload_ids.0`, or `upload_ids.3` with the shorthand). */
  sourcePath: (j: number) => string;
}

export interface BatchRequest {
  operation: AvailableOperation;
  options: Record<string, unknown>;
  /** `flow-extract`'s fields, instructions and saved workflow, for every child; null otherwise. */
  extraction: ExtractionSpec | null;
  items: BatchItem[];
  /** Applies to the whole batch's quote. */
  maxCredits: number | undefined;
  webhookId: string | null;
  webhookMode: WebhookMode;
}

const batchBody = z.strictObject({
  operation: z.string(),
  upload_ids: z
    .array(id('upl'))
    .min(1, 'upload_ids needs at least one upload')
    .max(BATCH_LIMITS.maxItems, `a batch has at most ${BATCH_LIMITS.maxItems} items`)
    .optional(),
  items: z
    .array(z.strictObject({ upload_ids: z.array(id('upl')).min(1, 'upload_ids needs at least one upload').max(20) }))
    .min(1, 'items needs at least one item')
    .max(BATCH_LIMITS.maxItems, `a batch has at most ${BATCH_LIMITS.maxItems} items`)
    .optional(),
  fields: z.unknown().optional(),
  instructions: z.unknown().optional(),
  options: z.record(z.string(), z.unknown()).optional(),
  max_credits: z.number().int().min(1).max(1_000_000_000).optional(),
  workflow_id: z.unknown().optional(),
  webhook_id: id(WEBHOOK_ID_PREFIX).optional(),
  webhook_mode: z.enum(WEBHOOK_MODES, { message: `webhook_mode is one of ${WEBHOOK_MODES.join(', ')}` }).optional(),
});

/**
 * Validates a batch or batch-estimate body: `upload_ids` (one child per upload) or `items` (one child per group),
 * never both, at most 100 children; the operation and options are those of a job and apply to every child.
 */
export function parseBatchRequest(body: unknown): BatchRequest {
  const parsed = batchBody.safeParse(body);
  if (!parsed.success) invalid(toIssues(parsed.error));
  const b = parsed.data;
  const issues: BodyIssue[] = [];
  if (b.upload_ids && b.items) invalid([{ path: 'items', message: 'send upload_ids or items, not both' }]);
  if (!b.upload_ids && !b.items)
    invalid([
      { path: 'upload_ids', message: 'a batch needs upload_ids (one child per upload) or items (one child per group)' },
    ]);
  const { operation, options, extraction } = operationAndOptions(
    b as { operation: string; options?: Record<string, unknown> },
    issues,
  );
  const items: BatchItem[] = b.items
    ? b.items.map((it, i) => ({
        uploadIds: it.upload_ids,
        path: `items.${i}.upload_ids`,
        sourcePath: (j: number) => `items.${i}.upload_ids.${j}`,
      }))
    : b.upload_ids!.map((u, i) => ({ uploadIds: [u], path: `upload_ids.${i}`, sourcePath: () => `upload_ids.${i}` }));
  for (const item of items) issues.push(...sourceIssues(operation, item.uploadIds, item.path));
  if (issues.length) invalid(issues);
  return {
    operation,
    options,
    extraction,
    items,
    maxCredits: b.max_credits,
    webhookId: b.webhook_id ?? null,
    webhookMode: b.webhook_mode ?? DEFAULT_WEBHOOK_MODE,
  };
}
