"""Re-embeds the regions of a cached engine run with another speaker encoder (same voice activity), for
compare-encoders.ts. Run with the speech engine's Python:

    python bench/speech-corpus/reembed.py CORPUS_DIR FROM_KEY TO_KEY CHECKPOINT SPLIT

Reads `<id>.engine-<FROM_KEY>.json` of the split's files (`tune-*` or `held-out-*`), writes `<id>.engine-<TO_KEY>.json`.
"""
import glob
import json
import os
import sys
import wave

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../engines/transcription"))
import speakers  # noqa: E402

corpus, from_key, to_key, checkpoint, split = sys.argv[1:6]
encoder = speakers.load_encoder(checkpoint)
for cache in sorted(glob.glob(os.path.join(corpus, f"{split}-*.engine-{from_key}.json"))):
    with open(cache, encoding="utf-8") as f:
        answer = json.load(f)
    with wave.open(cache.replace(f".engine-{from_key}.json", ".wav")) as w:
        audio = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16).astype(np.float32) / 32768
    regions = answer["regions"]["regions"]
    spans = [(int(round(r["start"] * speakers.SAMPLE_RATE)), int(round(r["end"] * speakers.SAMPLE_RATE))) for r in regions]
    for r, emb in zip(regions, encoder.embed_utterances([audio[a:b] for a, b in spans]) if spans else []):
        r["embedding"] = [round(float(v), 4) for v in emb]
    with open(cache.replace(from_key, to_key), "w", encoding="utf-8") as f:
        json.dump(answer, f)
    print(os.path.basename(cache), len(regions), flush=True)
