// A small metrics registry written out in Prometheus' text format (0.0.4).
// Counters and histograms are plain numbers updated in place (a Map lookup
// per observation), so the per-request hook costs next to nothing; gauges are
// read when /metrics is scraped. Any module can add its own figures:
// `metrics.gauge('tracker_peers', 'Peers in the swarm store', () => store.size)`.

export type Labels = Readonly<Record<string, string>>;
export type GaugeValue = number | ReadonlyArray<{ labels: Labels; value: number }>;

interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  render(lines: string[]): void | Promise<void>;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

export class Counter {
  readonly #series = new Map<string, { labels: string; value: number }>();
  readonly labelNames: readonly string[];

  constructor(labelNames: readonly string[]) {
    this.labelNames = labelNames;
  }

  /** Label values in the order of the label names. */
  inc(values: readonly string[] = [], by = 1): void {
    this.series(values).value += by;
  }

  /** One series, to keep and update directly where the same labels recur (hot paths). */
  series(values: readonly string[]): { value: number } {
    const key = values.join('\u0000');
    let series = this.#series.get(key);
    if (series === undefined) this.#series.set(key, (series = { labels: labelText(this.labelNames, values), value: 0 }));
    return series;
  }

  render(name: string, lines: string[]): void {
    for (const { labels, value } of this.#series.values()) lines.push(`${name}${labels} ${format(value)}`);
  }
}

export class Histogram {
  readonly #series = new Map<string, { labels: readonly string[]; counts: number[]; sum: number; count: number }>();

  readonly labelNames: readonly string[];
  readonly buckets: readonly number[];

  constructor(labelNames: readonly string[], buckets: readonly number[]) {
    this.labelNames = labelNames;
    this.buckets = buckets;
  }

  observe(values: readonly string[], value: number): void {
    this.series(values).observe(value);
  }

  /** One series, to keep and update directly where the same labels recur (hot paths). */
  series(values: readonly string[]): { observe(value: number): void } {
    const key = values.join('\u0000');
    let series = this.#series.get(key);
    if (series === undefined) {
      series = { labels: values, counts: new Array<number>(this.buckets.length).fill(0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    const found = series;
    const buckets = this.buckets;
    return {
      observe(value: number): void {
        // Counts per bucket, not cumulative: made cumulative when written out.
        let i = 0;
        while (i < buckets.length && value > buckets[i]!) i += 1;
        if (i < buckets.length) found.counts[i]! += 1;
        found.sum += value;
        found.count += 1;
      },
    };
  }

  render(name: string, lines: string[]): void {
    for (const series of this.#series.values()) {
      let cumulative = 0;
      this.buckets.forEach((bound, i) => {
        cumulative += series.counts[i]!;
        lines.push(`${name}_bucket${labelText([...this.labelNames, 'le'], [...series.labels, format(bound)])} ${cumulative}`);
      });
      lines.push(`${name}_bucket${labelText([...this.labelNames, 'le'], [...series.labels, '+Inf'])} ${series.count}`);
      lines.push(`${name}_sum${labelText(this.labelNames, series.labels)} ${format(series.sum)}`);
      lines.push(`${name}_count${labelText(this.labelNames, series.labels)} ${series.count}`);
    }
  }
}

export class MetricsRegistry {
  readonly #families = new Map<string, Family>();

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    const counter = new Counter(labelNames);
    this.#add({ name, help, type: 'counter', render: (lines) => counter.render(name, lines) });
    return counter;
  }

  histogram(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]): Histogram {
    const histogram = new Histogram(labelNames, buckets);
    this.#add({ name, help, type: 'histogram', render: (lines) => histogram.render(name, lines) });
    return histogram;
  }

  /** A figure read at scrape time: one number, or one per label set. */
  gauge(name: string, help: string, read: () => GaugeValue | Promise<GaugeValue>, type: 'gauge' | 'counter' = 'gauge'): void {
    this.#add({
      name,
      help,
      type,
      render: async (lines) => {
        const value = await read();
        if (typeof value === 'number') lines.push(`${name} ${format(value)}`);
        else for (const item of value) lines.push(`${name}${labelText(Object.keys(item.labels), Object.values(item.labels))} ${format(item.value)}`);
      },
    });
  }

  async render(): Promise<string> {
    const lines: string[] = [];
    for (const family of this.#families.values()) {
      lines.push(`# HELP ${family.name} ${family.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`);
      lines.push(`# TYPE ${family.name} ${family.type}`);
      try {
        await family.render(lines);
      } catch {
        // One figure that cannot be read (a database away) must not hide the others.
        lines.pop();
        lines.pop();
      }
    }
    return `${lines.join('\n')}\n`;
  }

  #add(family: Family): void {
    if (!NAME.test(family.name)) throw new Error(`invalid metric name ${family.name}`);
    if (this.#families.has(family.name)) throw new Error(`metric ${family.name} is registered twice`);
    this.#families.set(family.name, family);
  }
}

function labelText(names: readonly string[], values: readonly string[]): string {
  if (names.length === 0) return '';
  return `{${names.map((name, i) => `${name}="${escapeLabel(values[i] ?? '')}"`).join(',')}}`;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function format(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}
