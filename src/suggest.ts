/** "Did you mean": the nearest of some names to a mistyped one (flags, commands, tools, config keys). */

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length]!;
}

export function closest(word: string, choices: string[]): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const choice of choices) {
    const score = distance(word, choice);
    if (score < bestScore) {
      best = choice;
      bestScore = score;
    }
  }
  return bestScore <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}
