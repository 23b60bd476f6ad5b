"""Transcribes files exactly as the speech worker does (worker.py's Recogniser: faster-whisper, Silero VAD on, each
file from the same sampler state) and lists Silero's speech chunks (faster-whisper's transcription settings) per file.
Used by wer-causes.ts; portable CPU kernels, 2 threads, as the tests and benches run the engine.

Usage: python wer-causes.py MODEL_DIR OUT.json FILE...
"""

import json
import os
import sys

os.environ.update({"CT2_USE_MKL": "0", "CT2_FORCE_CPU_ISA": "AVX2", "ONEDNN_MAX_CPU_ISA": "AVX2"})
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../engines/transcription"))

from faster_whisper.audio import decode_audio  # noqa: E402
from faster_whisper.vad import VadOptions, get_speech_timestamps  # noqa: E402
from worker import Recogniser  # noqa: E402


def main() -> None:
    model_dir, out, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    recogniser = Recogniser(model_dir, "int8", 2)
    answers = {}
    for path in files:
        segments, _ = recogniser.transcribe(path, "en", True)
        recogniser.renew_if_sampled()
        audio = decode_audio(path, sampling_rate=16000)
        answers[path] = {
            "words": [w.word.strip() for s in segments for w in (s.words or []) if w.word.strip()],
            "temperatures": sorted({s.temperature for s in segments}),
            "vad": [[c["start"] / 16000, c["end"] / 16000] for c in get_speech_timestamps(audio, VadOptions())],
        }
        print(f"[wer-causes] {os.path.basename(path)}", file=sys.stderr, flush=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(answers, f)


if __name__ == "__main__":
    main()
