import { InvalidSourceError } from '../provider-errors.js';

/**
 * Whisper's languages as its HTTP API names them (OpenAI's `/v1/audio/transcriptions` answers `"language": "english"`),
 * keyed by the code Whisper uses. These are the API's vocabulary (Whisper's tokenizer), so they are listed here rather
 * than derived from a generic ISO name table, whose spellings differ ("Burmese" vs "myanmar", "Sinhala", "Nynorsk"...).
 */
const WHISPER_LANGUAGES: Record<string, string> = {
  en: 'english',
  zh: 'chinese',
  de: 'german',
  es: 'spanish',
  ru: 'russian',
  ko: 'korean',
  fr: 'french',
  ja: 'japanese',
  pt: 'portuguese',
  tr: 'turkish',
  pl: 'polish',
  ca: 'catalan',
  nl: 'dutch',
  ar: 'arabic',
  sv: 'swedish',
  it: 'italian',
  id: 'indonesian',
  hi: 'hindi',
  fi: 'finnish',
  vi: 'vietnamese',
  he: 'hebrew',
  uk: 'ukrainian',
  el: 'greek',
  ms: 'malay',
  cs: 'czech',
  ro: 'romanian',
  da: 'danish',
  hu: 'hungarian',
  ta: 'tamil',
  no: 'norwegian',
  th: 'thai',
  ur: 'urdu',
  hr: 'croatian',
  bg: 'bulgarian',
  lt: 'lithuanian',
  la: 'latin',
  mi: 'maori',
  ml: 'malayalam',
  cy: 'welsh',
  sk: 'slovak',
  te: 'telugu',
  fa: 'persian',
  lv: 'latvian',
  bn: 'bengali',
  sr: 'serbian',
  az: 'azerbaijani',
  sl: 'slovenian',
  kn: 'kannada',
  et: 'estonian',
  mk: 'macedonian',
  br: 'breton',
  eu: 'basque',
  is: 'icelandic',
  hy: 'armenian',
  ne: 'nepali',
  mn: 'mongolian',
  bs: 'bosnian',
  kk: 'kazakh',
  sq: 'albanian',
  sw: 'swahili',
  gl: 'galician',
  mr: 'marathi',
  pa: 'punjabi',
  si: 'sinhala',
  km: 'khmer',
  sn: 'shona',
  yo: 'yoruba',
  so: 'somali',
  af: 'afrikaans',
  oc: 'occitan',
  ka: 'georgian',
  be: 'belarusian',
  tg: 'tajik',
  sd: 'sindhi',
  gu: 'gujarati',
  am: 'amharic',
  yi: 'yiddish',
  lo: 'lao',
  uz: 'uzbek',
  fo: 'faroese',
  ht: 'haitian creole',
  ps: 'pashto',
  tk: 'turkmen',
  nn: 'nynorsk',
  mt: 'maltese',
  sa: 'sanskrit',
  lb: 'luxembourgish',
  my: 'myanmar',
  bo: 'tibetan',
  tl: 'tagalog',
  mg: 'malagasy',
  as: 'assamese',
  tt: 'tatar',
  haw: 'hawaiian',
  ln: 'lingala',
  ha: 'hausa',
  ba: 'bashkir',
  jw: 'javanese',
  su: 'sundanese',
  yue: 'cantonese',
};

/** Other names Whisper accepts for the same languages. */
const ALIASES: Record<string, string> = {
  burmese: 'my',
  valencian: 'ca',
  flemish: 'nl',
  haitian: 'ht',
  letzeburgesch: 'lb',
  pushto: 'ps',
  panjabi: 'pa',
  moldavian: 'ro',
  moldovan: 'ro',
  sinhalese: 'si',
  castilian: 'es',
  mandarin: 'zh',
};

/** Whisper's own codes that are not the ISO 639-1 code of the language. */
const ISO_FIXES: Record<string, string> = { jw: 'jv' };

const BY_NAME = new Map<string, string>([
  ...Object.entries(WHISPER_LANGUAGES).map(([code, name]) => [name, code] as [string, string]),
  ...Object.entries(ALIASES),
]);

/**
 * A language as a transcription API reports it (a Whisper name such as `english`, any case, or already a code such as
 * `en`) as its ISO 639-1 code. Whisper's two languages without an ISO 639-1 code keep their ISO 639-3 code (`haw`
 * Hawaiian, `yue` Cantonese); Whisper's `jw` becomes the ISO `jv`. Null for anything else.
 */
export function normalizeLanguage(reported: string): string | null {
  const value = reported.trim().toLowerCase().replace(/[_-]/g, ' ').replace(/\s+/g, ' ');
  const code =
    BY_NAME.get(value) ?? (value in WHISPER_LANGUAGES ? value : /^([a-z]{2,3})(?: [a-z0-9]+)*$/.exec(value)?.[1]);
  if (code === undefined || !(code in WHISPER_LANGUAGES || code === 'jv')) return null;
  return ISO_FIXES[code] ?? code;
}

/** The InvalidSourceError message for a requested language Whisper does not know (the same from every provider). */
export const UNSUPPORTED_LANGUAGE = 'the transcription provider does not support the requested language';

/**
 * A requested language (an ISO 639-1 code, a Whisper name or alias, any case, a region allowed: `en`, `English`,
 * `en-US`) as the ISO 639-1 code every provider sends and answers; InvalidSourceError for one Whisper does not know,
 * before any work is done. Both providers use it, so a request is accepted or refused the same way by either.
 */
export function requestedLanguage(requested: string): string {
  const code = requested.length <= 64 ? normalizeLanguage(requested) : null;
  if (code === null) throw new InvalidSourceError(UNSUPPORTED_LANGUAGE);
  return code;
}

/** The code Whisper's own tokenizer uses for an ISO code from normalizeLanguage (only Javanese differs: `jv` → `jw`). */
export function whisperLanguageCode(iso: string): string {
  return Object.entries(ISO_FIXES).find(([, fixed]) => fixed === iso)?.[0] ?? iso;
}
