// Running text for generated documents: plain sentences from a fixed vocabulary, so paragraphs look
// like prose (words in text fonts) without containing anything a rule could mistake for a label.

const WORDS = (
  "the model of a system is given by its state and the input it receives over time we consider " +
  "the case where each component interacts with its neighbours through a coupling that depends on " +
  "distance and on the strength of the signal this gives a simple description of how the response " +
  "changes when parameters vary and it allows a comparison between the observed behaviour and the " +
  "predicted one in what follows we study the stability of the solution and the rate at which " +
  "errors decay under repeated measurement the results hold for a broad class of problems and they " +
  "extend earlier work on related questions about estimation control and inference in networks"
).split(" ");

export function sentence(rng, min = 10, max = 22) {
  const n = rng.int(min, max);
  const out = [];
  for (let i = 0; i < n; i++) out.push(rng.pick(WORDS));
  const s = out.join(" ");
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
}

export function paragraph(rng, sentences = [3, 6]) {
  const n = rng.int(sentences[0], sentences[1]);
  return Array.from({ length: n }, () => sentence(rng)).join(" ");
}

/** Escapes text for XML. */
export function xml(s) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
