import type { AvailableOperation } from '../../../domain/validation/processing-request.js';

/** What each operation does, in words: the description of its request variants (its options are OPTION_SCHEMAS'). */
export const OPERATION_SUMMARIES: Readonly<Record<AvailableOperation, string>> = {
  'pdf-extract': 'Keep only the selected pages of a PDF.',
  'pdf-delete': 'Delete the selected pages of a PDF (not all of them).',
  'pdf-rotate': 'Rotate the selected pages (default: all) clockwise.',
  'pdf-protect': 'Encrypt a PDF with a password.',
  'pdf-unlock':
    'Remove the password of an encrypted PDF; the password is checked and the pages counted before quoting.',
  'pdf-watermark': 'Stamp a text on the selected pages (default: all).',
  'pdf-number': 'Print page numbers on the selected pages (default: all).',
  'pdf-merge': 'Merge 2 to 20 PDFs in the order given.',
  'image-edit': 'Resize (contained in width × height, aspect ratio kept), rotate, flip, crop and convert an image.',
  'image-compress': 'Compress an image, optionally converting it.',
  webp: 'Convert an image to WebP.',
  'ocr-text':
    'Recognise the text of a scanned or mixed PDF, or of an image, as plain UTF-8 text (pages separated by a form feed). Pages that already have a text layer keep their own text.',
  'ocr-docx':
    'Recognise the text of a scanned or mixed PDF, or of an image, as a Word document (DOCX): one page per source page, one paragraph per block of text.',
  'ocr-pdf':
    'Make a scanned or mixed PDF, or an image, searchable: each page as it was with an invisible text layer; pages that already have text are kept unchanged.',
  'audio-trim':
    "Keep the part of an audio file from `start` to `end` (exact to the sample; re-encoded in the source's format when it is MP3, WAV, FLAC or Ogg, else AAC in M4A).",
  'video-trim': 'Keep the part of a video from `start` to `end` (exact to the frame; H.264 + AAC in MP4).',
  'video-rotate':
    'Rotate a video clockwise (H.264 + AAC in MP4; a rotation flag of the source is applied first, so the result is turned from what players showed).',
  'video-resize':
    'Scale a video to a height; the width keeps the display aspect ratio, rounded to an even number (H.264 + AAC in MP4).',
  'audio-compress':
    "Compress audio to AAC in M4A: 96 kbit/s (64 mono), and at most three quarters of the source's bitrate.",
  'video-compress':
    "Compress a video (H.264 CRF 28, at most 70 % of the source's video bitrate; AAC up to 96 kbit/s) in MP4, same size and duration.",
  transcribe:
    "Transcribe the speech of an audio file or of a video's first audio track, with word timestamps and anonymous speakers (`SPEAKER_1`, …). " +
    'Priced per started minute of the decoded duration. Result formats: docs/processing.md, "Transcription".',
  meeting:
    "Transcribe a meeting (audio, or a video's first audio track) and write the meeting document twice, as DOCX and as JSON: speakers with talk " +
    'time, a timeline of turns, a summary, and the transcript with speakers. Priced per started minute of the decoded duration. docs/processing.md, "Meeting".',
  'flow-extract':
    'Extract named fields and line items from PDFs, images and UTF-8 text (1 to 20 documents, one row per document): each value with the ' +
    'evidence it was read from, checked against the source by the platform; `review_required` where a check failed. Results: XLSX, the CSV files ' +
    'in one ZIP, and JSON (`ExtractionJson`). Send `fields` (and optional `instructions`), or a `workflow_id` whose settings take precedence. ' +
    'An e-invoice (a PDF with its CII or UBL XML embedded: Factur-X, ZUGFeRD, XRechnung; or that XML, or a FatturaPA, uploaded as text) is read ' +
    'from its XML: evidence `source` `xml` with the element\'s `path`. 25 credits per page. docs/processing.md, "Field extraction" and "E-invoices".',
};
