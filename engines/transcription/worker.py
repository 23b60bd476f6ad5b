"""The offline speech worker: faster-whisper with the model loaded once, answering JSON lines over stdio.

Usage: python worker.py [--model DIR] [--speaker-model FILE] [--cpu-threads N] [--compute-type int8]
                        [--cpu-kernels native|portable]

After loading the model it writes {"ready": true, ...}; then, for each request line
    {"id": "r1", "path": "/tmp/.../audio.wav", "language": "en"?, "vad": true?}
it writes one line, in order:
    {"id": "r1", "language": "en", "language_probability": 0.97, "duration": 7.3,
     "segments": [{"start": 0.0, "end": 2.9, "text": "..."}],
     "words": [{"start": 0.0, "end": 0.16, "word": "The", "probability": 0.52}]}
or {"id": "r1", "error": "...", "code": "invalid_audio" | "bad_request" | "engine_error"}.
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
        segments, info = self.model.transcribe(path, language=language or None, word_timestamps=True, vad_filter=vad,
                                               beam_size=5, condition_on_previous_text=False)
        return list(segments), info

    def renew_if_sampled(self) -> None:
        if self.sampled:
            self.model = None  # the old model's threads end before the new one's start
            self.model = self._load()


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
                    words_out.append({"start": round(word.start, 3), "end": round(word.end, 3), "word": text,
                                      "probability": round(word.probability, 4)})
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
