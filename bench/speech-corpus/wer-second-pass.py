"""A second pass over speech the first pass left without words, measured on wer-causes.ts's tune conversations
(bench/README.md, "Session 10: a second pass over speech left without words").

The measurement that led to worker.py's second pass (which takes stretches inside regions too; this script whole
regions only). For each of the five conversations wer-causes.ts wrote into OUT_DIR: the first pass exactly as
worker.py's Recogniser decodes it (word timestamps kept); then Silero's speech regions at each THRESHOLD (speakers.py's grouping:
200 ms silences end a region, 50 ms pad, 250 ms minimum); each region of at least 0.5 s that no first-pass word
touches is decoded alone (padded 0.3 s, VAD off, no conditioning, beam 5), and its words whose middle lies inside
the region are kept as candidates with their segment's statistics. Writes OUT_DIR/second-pass.json:
    {path: {"first": [[start, end, word, p], ...],
            "candidates": {threshold: [{"region": [s, e], "segments": [{avg_logprob, no_speech_prob,
                            compression_ratio, temperature, words: [[s, e, word, p], ...]}]}]}}}
and, for each threshold and filter, OUT_DIR/answers-sp<threshold>-<filter>.json (answers.json with the
conversations' words replaced) to score with `npx tsx bench/speech-corpus/wer-causes.ts --answers FILE`.
Tune voices only.

Usage: python wer-second-pass.py MODEL_DIR OUT_DIR [THRESHOLD...]     (default thresholds 0.5 0.35 0.25)
"""

import json
import os
import sys
import time

os.environ.update({"CT2_USE_MKL": "0", "CT2_FORCE_CPU_ISA": "AVX2", "ONEDNN_MAX_CPU_ISA": "AVX2"})
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../engines/transcription"))

from faster_whisper.audio import decode_audio  # noqa: E402
from faster_whisper.vad import VadOptions, get_speech_timestamps  # noqa: E402
from worker import Recogniser  # noqa: E402

CONVERSATIONS = ["causes-2sp-radio", "causes-3sp", "causes-4sp", "causes-2sp-radio-apart", "causes-2sp-wide"]
SR = 16000
PAD = 0.3
MIN_REGION = 0.5

FILTERS = {
    # every candidate word
    "all": lambda seg, w: True,
    # Whisper's own no-speech rule made stricter: a segment that is probably not speech is dropped whatever its text
    "nospeech": lambda seg, w: seg["no_speech_prob"] < 0.6,
    # and a segment decoded with a low mean log probability or by sampling is dropped
    "confident": lambda seg, w: seg["no_speech_prob"] < 0.6 and seg["avg_logprob"] > -1.0 and seg["temperature"] == 0,
    # and words below 0.3 probability
    "confident-words": lambda seg, w: seg["no_speech_prob"] < 0.6 and seg["avg_logprob"] > -1.0
    and seg["temperature"] == 0 and w[3] >= 0.3,
}


def words_of(segments, offset=0.0):
    return [[round(w.start + offset, 3), round(w.end + offset, 3), w.word.strip(), round(w.probability, 4)]
            for s in segments for w in (s.words or []) if w.word.strip()]


def main() -> None:
    model_dir, out_dir = sys.argv[1], sys.argv[2]
    thresholds = [float(t) for t in sys.argv[3:]] or [0.5, 0.35, 0.25]
    recogniser = Recogniser(model_dir, "int8", 2)
    with open(os.path.join(out_dir, "answers.json"), encoding="utf-8") as f:
        base = json.load(f)
    result, timing = {}, {"first": 0.0, "vad": 0.0, "second": {t: 0.0 for t in thresholds}}
    for path in (os.path.join(out_dir, f"{c}.wav") for c in CONVERSATIONS):
        t0 = time.time()
        audio = decode_audio(path, sampling_rate=SR)
        # the first pass alone, as worker.py's Recogniser decodes (its second pass is what is measured here)
        segments, _ = recogniser.model.transcribe(audio, language="en", word_timestamps=True, vad_filter=True,
                                                  beam_size=5, condition_on_previous_text=False)
        segments = list(segments)
        recogniser.renew_if_sampled()
        timing["first"] += time.time() - t0
        first = words_of(segments)
        entry = {"first": first, "candidates": {}}
        for threshold in thresholds:
            t1 = time.time()
            regions = [(c["start"] / SR, c["end"] / SR) for c in get_speech_timestamps(
                audio, VadOptions(threshold=threshold, min_silence_duration_ms=200, speech_pad_ms=50,
                                  min_speech_duration_ms=250))]
            timing["vad"] += time.time() - t1
            t2 = time.time()
            found = []
            for start, end in regions:
                if end - start < MIN_REGION or any(w[0] < end and w[1] > start for w in first):
                    continue
                a, b = max(0.0, start - PAD), min(len(audio) / SR, end + PAD)
                segs, _ = recogniser.model.transcribe(audio[int(a * SR):int(b * SR)], language="en",
                                                      word_timestamps=True, vad_filter=False, beam_size=5,
                                                      condition_on_previous_text=False)
                segs = list(segs)
                recogniser.renew_if_sampled()
                found.append({"region": [round(start, 3), round(end, 3)], "segments": [
                    {"avg_logprob": round(s.avg_logprob, 3), "no_speech_prob": round(s.no_speech_prob, 3),
                     "compression_ratio": round(s.compression_ratio, 3), "temperature": s.temperature,
                     "words": [w for w in words_of([s], a) if start - 0.1 <= (w[0] + w[1]) / 2 <= end + 0.1]}
                    for s in segs]})
            timing["second"][threshold] += time.time() - t2
            entry["candidates"][str(threshold)] = found
        result[path] = entry
        print(f"[second-pass] {os.path.basename(path)}", file=sys.stderr, flush=True)
    with open(os.path.join(out_dir, "second-pass.json"), "w", encoding="utf-8") as f:
        json.dump(result, f)
    for threshold in thresholds:
        for name, keep in FILTERS.items():
            answers = dict(base)
            for path, entry in result.items():
                extra = [w for c in entry["candidates"][str(threshold)] for s in c["segments"] for w in s["words"]
                         if keep(s, w)]
                merged = sorted(entry["first"] + extra, key=lambda w: (w[0], w[1]))
                answers[path] = dict(base[path], words=[w[2] for w in merged])
            with open(os.path.join(out_dir, f"answers-sp{threshold}-{name}.json"), "w", encoding="utf-8") as f:
                json.dump(answers, f)
    print(json.dumps(timing), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
