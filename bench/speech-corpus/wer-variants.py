"""Decoding variants of the speech worker on wer-causes.ts's tune conversations (bench/README.md, "Session 7").

Transcribes the five conversations wer-causes.ts wrote into OUT_DIR as worker.py's Recogniser does (same model, same
sampler reset after a file that sampled), with the variant's faster-whisper options added, and writes
OUT_DIR/answers-<variant>.json: a copy of OUT_DIR/answers.json (the baseline run, whose piece transcripts stay the
references) with the conversations' words replaced. Score it with
`npx tsx bench/speech-corpus/wer-causes.ts --answers OUT_DIR/answers-<variant>.json`. Tune voices only.

Usage: python wer-variants.py MODEL_DIR OUT_DIR VARIANT...
"""

import json
import os
import sys
import time

os.environ.update({"CT2_USE_MKL": "0", "CT2_FORCE_CPU_ISA": "AVX2", "ONEDNN_MAX_CPU_ISA": "AVX2"})
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../engines/transcription"))

from faster_whisper.vad import VadOptions  # noqa: E402
from worker import Recogniser  # noqa: E402

CONVERSATIONS = ["causes-2sp-radio", "causes-3sp", "causes-4sp", "causes-2sp-radio-apart", "causes-2sp-wide"]
VARIANTS = {
    "vad035": dict(vad_parameters=VadOptions(threshold=0.35)),
    "vad025": dict(vad_parameters=VadOptions(threshold=0.25)),
    "vad035-nons": dict(vad_parameters=VadOptions(threshold=0.35), no_speech_threshold=None),
    "vad035-nocr": dict(vad_parameters=VadOptions(threshold=0.35), compression_ratio_threshold=None),
}


def main() -> None:
    model_dir, out_dir, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    recogniser = Recogniser(model_dir, "int8", 2)
    with open(os.path.join(out_dir, "answers.json"), encoding="utf-8") as f:
        base = json.load(f)
    for name in names:
        answers, started = dict(base), time.time()
        for path in (os.path.join(out_dir, f"{c}.wav") for c in CONVERSATIONS):
            segments, _ = recogniser.model.transcribe(path, language="en", word_timestamps=True, vad_filter=True,
                                                      beam_size=5, condition_on_previous_text=False, **VARIANTS[name])
            segments = list(segments)
            recogniser.renew_if_sampled()
            answers[path] = dict(base[path], words=[w.word.strip() for s in segments for w in (s.words or [])
                                                    if w.word.strip()],
                                 temperatures=sorted({s.temperature for s in segments}))
        with open(os.path.join(out_dir, f"answers-{name}.json"), "w", encoding="utf-8") as f:
            json.dump(answers, f)
        print(f"[wer-variants] {name}: {time.time() - started:.0f} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
