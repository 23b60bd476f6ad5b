"""The offline speech worker: faster-whisper with the model loaded once, answering JSON lines over stdio.

Usage: python worker.py [--model DIR] [--speaker-model FILE] [--cpu-threads N] [--compute-type int8]
                        [--cpu-kernels native|portable]

After loading the model it writes {"ready": true, ...}; then, for each request line
    {"id": "r1", "path": "/tmp/.../audio.wav", "language": "en"?, "vad": true?}
it writes one line, in order:
    {"id": "r1", "language": "en", "language_probability": 0.97, "duration": 7.3,
     "segments": [{"start": 0.0, "end": 2.9, "text": "..."}],
     "words": [{"start": 0.0, "end": 0.16, "word": "The", "probability": 0.52, "spaced": true}]}
or {"id": "r1", "error": "...", "code": "invalid_audio" | "bad_request" | "engine_error"}.
Each word is sent without its leading space, and "spaced" says whether faster-whisper began it with one: a word of
its own (" is", " -5") or not (the "-C" of " USB", "-C": faster-whisper starts a new word at a hyphen), so the
adapter joins exactly the pieces of one word (domain/transcript-words.ts).
A request with "kind": "speakers" (needs --speaker-model, the speaker encoder's checkpoint: CAM++ or Resemblyzer; see speakers.py)
    {"id": "r2", "kind": "speakers", "path": "/tmp/.../audio.wav"}
is answered with the speech regions (Silero VAD, cut to at most 3 s) and one voice embedding each:
    {"id": "r2", "duration": 7.3, "regions": [{"start": 0.35, "end": 2.9, "embedding": [0.0123, ...256 floats]}]}
Times are seconds on the file's timeline. Error messages never contain the path; details go to stderr.
Requests are handled one at a time (the TypeScript adapter runs several workers for concurrency), and the same
audio gets the same transcript whatever the worker answered before (Recogniser below).
A model that cannot load writes {"fatal": "..."} and exits with status 2.
"""

import argparse
import json
import os
import sys
import traceback

os.environ["HF_HUB_OFFLINE"] = "1"  # never reach a hub: the model is a local folder
os.environ.setdefault("TQDM_DISABLE", "1")

import av  # noqa: E402 - PyAV decodes the audio inside faster-whisper


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default=None)
    parser.add_argument("--speaker-model", default=None)
    parser.add_argument("--cpu-threads", type=int, default=0)
    parser.add_argument("--compute-type", default="int8")
    parser.add_argument("--cpu-kernels", choices=["native", "portable"], default="native")
    args = parser.parse_args()
    if args.cpu_kernels == "portable":
        # Read by CTranslate2 and oneDNN when they load (below): oneDNN, not Intel MKL, capped at AVX2 on every CPU.
        os.environ.update(PORTABLE_KERNELS)

    # Answers go to a private copy of stdout; anything a library prints lands on stderr instead.
    out = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)

    def send(payload: dict) -> None:
        out.write(json.dumps(payload, ensure_ascii=False, separators=(",", ":")) + "\n")
        out.flush()

    try:
        # Without --model the worker only answers speakers requests (a deployment transcribing over HTTP).
        model = None if not args.model else Recogniser(args.model, args.compute_type, args.cpu_threads)
        speakers = Speakers(args.speaker_model)
    except Exception as error:  # noqa: BLE001 - reported to the supervisor, which fails the requests
        traceback.print_exc()
        send({"fatal": f"model could not be loaded ({type(error).__name__})"})
        return 2
    send({"ready": True, "compute_type": args.compute_type, "pid": os.getpid()})

    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
            request_id = request["id"]
            path = request["path"]
            if not isinstance(request_id, str) or not isinstance(path, str):
                raise TypeError("id and path must be strings")
        except (ValueError, KeyError, TypeError) as error:
            send({"id": None, "error": f"bad request ({type(error).__name__})", "code": "bad_request"})
            continue
        if request.get("kind", "transcribe") == "speakers":
            send(speakers.answer(request_id, path))
        else:
            send(transcribe(model, request_id, path, request.get("language"), request.get("vad", True)))
            if model is not None:
                model.renew_if_sampled()
    return 0


# The CPU kernels every x86-64 CPU with AVX2 computes alike with (engines/transcription/README.md, "Same audio, same
# transcript"): oneDNN for every matrix product, never Intel MKL, and no instruction set above AVX2.
PORTABLE_KERNELS = {"CT2_USE_MKL": "0", "CT2_FORCE_CPU_ISA": "AVX2", "ONEDNN_MAX_CPU_ISA": "AVX2"}

# The seed of CTranslate2's sampler: fixed, so the same audio gives the same transcript in every run of the worker.
SAMPLING_SEED = 16


class Recogniser:
    """
    The Whisper model, answering the same audio with the same transcript whatever the worker did before.

    Decoding is beam search at temperature 0, deterministic; only a window that fails Whisper's checks (a repetition
    loop, a low log probability) is decoded again by sampling at a higher temperature. CTranslate2 draws those samples
    from a generator that lives in the model's worker thread, seeded once when the thread first samples (with a random
    seed unless one is set) and advancing with every sample after that. So a request that sampled would change the
    answers of the requests after it: the model (and its thread) is built again after such a request, from the fixed
    seed, and the next request starts from the same state as the first. A window may sample and then be dropped (as no
    speech), leaving no trace in the segments, so sampling is noted where it happens, at the model's generate call.
    """

    def __init__(self, model_dir: str, compute_type: str, cpu_threads: int):
        self.model_dir, self.compute_type, self.cpu_threads = model_dir, compute_type, cpu_threads
        self.model = self._load()

    def _load(self):
        import ctranslate2
        from faster_whisper import WhisperModel

        ctranslate2.set_random_seed(SAMPLING_SEED)
        model = WhisperModel(self.model_dir, device="cpu", compute_type=self.compute_type, cpu_threads=self.cpu_threads,
                             local_files_only=True)
        model.model = SamplerWatch(model.model)
        return model

    @property
    def sampled(self) -> bool:
        return self.model.model.sampled

    def transcribe(self, path: str, language, vad: bool):
        # Each 30 s window is decoded on its own audio, not conditioned on the text before it: conditioned, a window
        # after a change of voice was decoded as more of the text before it or as invented sentences ("Thank you for
        # your time"), and half of a two-voice minute was lost or made up. Voice activity detection (Silero, shipped
        # inside faster-whisper) on by default: without it the model invents words on silence and noise ("You" on 5 s
        # of silence here) and spends seconds decoding them.
        from faster_whisper.audio import decode_audio

        audio = decode_audio(path, sampling_rate=SAMPLE_RATE)  # what faster-whisper does with a path, done once here
        segments, info = self.model.transcribe(audio, language=language or None, word_timestamps=True, vad_filter=vad,
                                               beam_size=5, condition_on_previous_text=False)
        segments = [Piece.of(s) for s in segments]
        if vad:
            segments = sorted(segments + self.second_pass(audio, segments, info.language), key=lambda s: s.start)
        return segments, info

    def second_pass(self, audio, segments, language) -> list:
        """
        Speech the first pass left without words, decoded again on its own (engines/transcription/README.md, "A
        second pass over speech left without words"). Whisper sometimes skips a whole turn it was given: a 9 s turn
        of a radio voice at the start of a 30 s window came out with no word (or with two words misplaced into its
        end), though the same stretch decoded alone is transcribed right. Silero's speech regions are found as the
        speaker step finds them (a 0.2 s pause ends a region, not faster-whisper's 2 s); a stretch of a region that no
        first-pass word touches, the whole region of at least SECOND_PASS_MIN_SECONDS or a part of at least
        SECOND_PASS_MIN_GAP_SECONDS, is decoded alone (padded SECOND_PASS_PAD_SECONDS, no voice activity filter, no
        conditioning, the first pass's language; not one that reaches the audio's first or last 0.25 s, speech cut by a
        chunk's edge), and only its confident segments are kept (not probably silence,
        mean log probability above Whisper's -1, decoded at temperature 0), with the words whose middle lies inside
        the stretch (the padding belongs to the neighbours, whose words are already written).
        """
        from faster_whisper.vad import VadOptions, get_speech_timestamps

        options = VadOptions(min_silence_duration_ms=200, speech_pad_ms=50, min_speech_duration_ms=250)
        written = sorted((w.start, w.end) for s in segments for w in s.words)
        added = []
        for ts in get_speech_timestamps(audio, options, sampling_rate=SAMPLE_RATE):
            for start, end, whole in uncovered(ts["start"] / SAMPLE_RATE, ts["end"] / SAMPLE_RATE, written):
                if end - start < (SECOND_PASS_MIN_SECONDS if whole else SECOND_PASS_MIN_GAP_SECONDS):
                    continue
                if start < SECOND_PASS_EDGE_SECONDS or end > len(audio) / SAMPLE_RATE - SECOND_PASS_EDGE_SECONDS:
                    continue  # speech cut by the audio's edge (a chunk's seam): the neighbouring chunk writes it
                a = max(0.0, start - SECOND_PASS_PAD_SECONDS)
                b = min(len(audio) / SAMPLE_RATE, end + SECOND_PASS_PAD_SECONDS)
                found, _ = self.model.transcribe(audio[round(a * SAMPLE_RATE):round(b * SAMPLE_RATE)],
                                                 language=language, word_timestamps=True, vad_filter=False,
                                                 beam_size=5, condition_on_previous_text=False)
                for segment in found:
                    if segment.no_speech_prob >= 0.6 or segment.avg_logprob <= -1.0 or segment.temperature > 0:
                        continue
                    piece = Piece.of(segment, a)
                    piece.words = [w for w in piece.words if start <= (w.start + w.end) / 2 <= end]
                    if piece.words:
                        piece.start, piece.end = piece.words[0].start, piece.words[-1].end
                        # As faster-whisper writes a segment's text: its words' own text, leading spaces and all
                        # ("USB-C" is " USB" + "-C"; words of Chinese or Japanese have no spaces between them).
                        piece.text = "".join(w.word for w in piece.words).strip()
                        piece.second = True
                        added.append(piece)
        return added

    def renew_if_sampled(self) -> None:
        if self.sampled:
            self.model = None  # the old model's threads end before the new one's start
            self.model = self._load()


SAMPLE_RATE = 16000
SECOND_PASS_MIN_SECONDS = 0.5  # a shorter speech region without words is not decoded again
SECOND_PASS_MIN_GAP_SECONDS = 1.0  # nor a shorter stretch without words inside a region that has some
SECOND_PASS_PAD_SECONDS = 0.3
# A stretch this close to the audio's start or end is not decoded again: at a chunk's seam it is a word cut in two,
# which the chunk on the other side has whole ("behind the Kurt -Bier -Bier" for "behind the curtain" when it was).
SECOND_PASS_EDGE_SECONDS = 0.25


def uncovered(start: float, end: float, written: list) -> list:
    """The stretches of [start, end] that no (start, end) interval of `written` (sorted) touches, each with whether it
    is the whole of [start, end]."""
    stretches, at = [], start
    for a, b in written:
        if b <= at or a >= end:
            continue
        if a > at:
            stretches.append((at, a))
        at = max(at, b)
    if at < end:
        stretches.append((at, end))
    return [(a, b, a == start and b == end) for a, b in stretches]


class Word:
    def __init__(self, start: float, end: float, word: str, probability: float):
        self.start, self.end, self.word, self.probability = start, end, word, probability


class Piece:
    """A transcribed segment on the file's timeline (faster-whisper's Segment, shifted by where its audio began)."""

    def __init__(self, start: float, end: float, text: str, words: list, temperature: float):
        self.start, self.end, self.text, self.words, self.temperature = start, end, text, words, temperature
        self.second = False  # decoded by the second pass

    @staticmethod
    def of(segment, offset: float = 0.0) -> "Piece":
        return Piece(segment.start + offset, segment.end + offset, segment.text,
                     [Word(w.start + offset, w.end + offset, w.word, w.probability) for w in segment.words or []],
                     segment.temperature)


class SamplerWatch:
    """CTranslate2's Whisper model as faster-whisper uses it, noting whether a generate call sampled."""

    def __init__(self, inner):
        self._inner = inner
        self.sampled = False

    def generate(self, *args, **kwargs):
        if kwargs.get("sampling_temperature", 0) > 0:
            self.sampled = True
        return self._inner.generate(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self._inner, name)


class Speakers:
    """The voice encoder (0.03 s to load, numpy only), when the worker was given one."""

    def __init__(self, checkpoint: str | None):
        self.checkpoint = checkpoint
        self.encoder = None
        if checkpoint:
            import speakers as engine

            self.encoder = engine.load_encoder(checkpoint)

    def answer(self, request_id: str, path: str) -> dict:
        if self.encoder is None:
            return {"id": request_id, "error": "no speaker model was given to the worker", "code": "engine_error"}
        try:
            import speakers as engine
            from faster_whisper.audio import decode_audio

            audio = decode_audio(path, sampling_rate=engine.SAMPLE_RATE)
        except (av.error.FFmpegError, EOFError) as error:
            log(f"request {request_id}: audio could not be decoded ({type(error).__name__})")
            return {"id": request_id, "error": "the audio could not be decoded", "code": "invalid_audio"}
        except Exception as error:  # noqa: BLE001 - one bad request must not end the worker
            traceback.print_exc()
            return {"id": request_id, "error": f"speaker analysis failed ({type(error).__name__})", "code": "engine_error"}
        try:
            regions = engine.speaker_regions(self.encoder, audio)
            return {"id": request_id, "duration": round(len(audio) / engine.SAMPLE_RATE, 3), "regions": regions}
        except Exception as error:  # noqa: BLE001
            traceback.print_exc()
            return {"id": request_id, "error": f"speaker analysis failed ({type(error).__name__})", "code": "engine_error"}


def transcribe(model, request_id: str, path: str, language, vad) -> dict:
    if model is None:
        return {"id": request_id, "error": "no Whisper model was given to the worker", "code": "engine_error"}
    try:
        segments, info = model.transcribe(path, language, bool(vad))
        seg_out, words_out = [], []
        for segment in segments:
            seg_out.append({"start": round(segment.start, 3), "end": round(segment.end, 3), "text": segment.text.strip()})
            for word in segment.words or []:
                text = word.word.strip()
                if text:
                    # spaced: faster-whisper began the word with a space (" -5"), not a piece of the one before ("-C")
                    words_out.append({"start": round(word.start, 3), "end": round(word.end, 3), "word": text,
                                      "probability": round(word.probability, 4),
                                      "spaced": word.word[:1].isspace()})
        # A second-pass segment lies where the first pass had no word, but a first-pass segment may span it: the words
        # are put in time order (a stable sort: the first pass's own order is kept).
        words_out.sort(key=lambda w: w["start"])
        return {"id": request_id, "language": info.language, "language_probability": round(info.language_probability, 4),
                "duration": round(info.duration, 3), "segments": seg_out, "words": words_out}
    except (av.error.FFmpegError, EOFError) as error:
        log(f"request {request_id}: audio could not be decoded ({type(error).__name__})")
        return {"id": request_id, "error": "the audio could not be decoded", "code": "invalid_audio"}
    except Exception as error:  # noqa: BLE001 - one bad request must not end the worker
        traceback.print_exc()
        return {"id": request_id, "error": f"transcription failed ({type(error).__name__})", "code": "engine_error"}


if __name__ == "__main__":
    sys.exit(main())
