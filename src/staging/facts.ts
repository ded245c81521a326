import { isProductionId } from '../contract.js'
import type { Result, StagingState } from '../types.js'

/**
 * What one run learnt about the staging site: its id, its URL, its state, and where each came from
 * (issue 20 §1). Every source writes through `learn`; the rule of which source may overwrite which
 * (contract r4 §3) lives here and nowhere else:
 *
 * - A source outranks those below it: this run's own answers (the create answer, a completed task,
 *   a job that ended well) > a read of the staging environment > the site list > a URL from outside
 *   the service's answers (an earlier run's, the staging-url input; used once it answers).
 * - A value from a source at least as strong replaces the one held; a weaker source only fills
 *   what is unknown. A weaker source that says otherwise is reported, once, as a warning that the
 *   sources disagree, and the stronger word is kept. Saying nothing never blanks anything.
 * - "No staging" (state `none`) comes only from a delete that succeeded, or from a 404 of the
 *   staging read, confirmed as contract §4 asks (the caller confirms the API root first), BEFORE any
 *   source named the staging site or said it exists. Any other "none" (a 404 after a job that
 *   succeeded, a list without the record) is a disagreement when something named it, else a note.
 * - A source that names another staging site than a stronger source did lends nothing: not its URL
 *   either (contract §5, §12), so an id and a URL never come from records that disagree.
 * - A record that gives the production site's own id as the staging id is not about staging (§5
 *   r3): nothing in it is used, and the run says so.
 */

/** What kind of source said it: its rank is fixed by the kind, its words are shown to people. */
export type SourceKind = 'answer' | 'job' | 'read' | 'list' | 'outside'
export interface Source {
  kind: SourceKind
  /** Shown in the summary (`stagingFrom`) and in warnings: "the create answer", "the site list, …". */
  words: string
}

const RANK: Record<SourceKind, number> = { answer: 3, job: 3, read: 2, list: 1, outside: 0 }

/** What a source said. Absent or null fields say nothing. */
export interface Learnt {
  id?: string | null
  url?: string | null
  /** `none`: "there is no staging environment" (see the rule above); `unknown`: it could not tell. */
  state?: StagingState | null
  /** The source says a staging environment exists without naming it (a job on it ended well, a 422 "exists"). */
  exists?: boolean
}

interface Fact<T> {
  value: T
  from: Source
}

export class Facts {
  private idFact: Fact<string> | null = null
  private urlFact: Fact<string> | null = null
  private stateFact: Fact<StagingState> | null = null
  /** The first source that said the staging site exists (named it, or a job on it ended well). */
  private existsFrom: Source | null = null
  private readonly notes: string[] = []
  private readonly said = new Set<string>()

  constructor(
    private readonly productionId: string,
    /** How the run says what it learnt: `warn` for the log and the Result's warnings, `info` for the log. */
    private readonly voice: { warn(text: string): void; info(text: string): void },
    /** The run's other production sites: none is this one's staging either. */
    private readonly others: readonly string[] = [],
  ) {}

  get url(): string | null {
    return this.urlFact?.value ?? null
  }
  /** Whether some source of this run named the staging site or said it exists. */
  get named(): boolean {
    return this.existsFrom !== null
  }
  get id(): string | null {
    return this.idFact?.value ?? null
  }
  /** Drops the staging site's id and URL (another site of the run holds that staging), with why. */
  disown(why: string): void {
    this.warn(`Staging site ${this.id ?? this.url} ${why}: its id and URL are not this site's outputs.`)
    this.idFact = this.urlFact = null
  }
  /** Whether both the id and the URL are known (nothing left for the other sources to fill). */
  get complete(): boolean {
    return this.idFact !== null && this.urlFact !== null
  }

  /** The one way a source tells what it learnt. False when the record was refused whole (it names a production
   * site as the staging site), else true (even when a weaker word was not taken). */
  learn(source: Source, learnt: Learnt): boolean {
    const { id, url, state, exists } = learnt
    const other = id ? this.others.find((p) => p !== this.productionId && isProductionId(id, p)) : undefined
    if (id && (other !== undefined || isProductionId(id, this.productionId))) {
      const whose =
        other === undefined
          ? `the production site's own id (${this.productionId})`
          : `the id of site ${other}, another production site of this run,`
      this.warn(
        `${capital(source.words)} gave ${whose} as the staging site's id: that cannot be true, so the staging site id is unknown and nothing else in that answer was used.`,
      )
      return false
    }
    if (state === 'none') {
      this.none(source)
      return true
    }
    // A source that names another staging site than a stronger one did is wrong about which site is
    // staging: it lends no URL either (contract §5, §12).
    const held = this.idFact
    if (id && held && held.value !== id && RANK[source.kind] < RANK[held.from.kind]) {
      this.take(held, { value: id, from: source }, 'the staging site id')
      if (url) this.warn(`So the URL ${source.words} gave (${url}) was not used either.`)
      return true
    }
    // As strong a source naming another site: its id is taken, and the URL that came with the other goes.
    if (id && held && held.value !== id && this.urlFact && this.urlFact.from !== source) {
      this.warn(
        `${capital(source.words)} gave ${id} as the staging site id, but ${held.from.words} gave ${held.value}: the sources disagree; ${id} was kept, without ${held.from.words}'s URL.`,
      )
      this.urlFact = null
    }
    if (id) this.idFact = this.take(this.idFact, { value: id, from: source }, 'the staging site id')
    if (url) this.urlFact = this.take(this.urlFact, { value: url, from: source }, 'the staging URL')
    if (id || url || exists) {
      this.existsFrom ??= source
      if (this.stateFact?.value === 'none') this.stateFact = null
    }
    // The state changes as jobs run: the latest word on it wins, but "unknown" never hides a known one.
    if (state && (state !== 'unknown' || !this.stateFact)) this.stateFact = { value: state, from: source }
    return true
  }

  /** A source that gave nothing says why, for the summary (stagingFrom's notes), once. */
  note(text: string): void {
    this.voice.info(text)
    if (!this.notes.includes(text)) this.notes.push(text)
  }

  view(): Pick<Result, 'stagingSiteId' | 'stagingUrl' | 'stagingState' | 'stagingFrom'> {
    return {
      stagingSiteId: this.idFact?.value ?? null,
      stagingUrl: this.url,
      stagingState: this.stateFact?.value ?? null,
      stagingFrom: {
        siteId: this.idFact?.from.words ?? null,
        url: this.urlFact?.from.words ?? null,
        notes: [...this.notes],
      },
    }
  }

  /** The value to hold: `next` unless a stronger source said otherwise (then a warning, once). */
  private take(held: Fact<string> | null, next: Fact<string>, what: string): Fact<string> {
    if (!held) return next
    const stronger = RANK[next.from.kind] - RANK[held.from.kind]
    if (held.value === next.value) return stronger > 0 ? next : held
    if (stronger >= 0) return next
    this.warn(
      `${capital(next.from.words)} gave ${next.value} as ${what}, but ${held.from.words} gave ${held.value}: the sources disagree; ${held.value} (from ${held.from.words}) was kept.`,
    )
    return held
  }

  /** "There is no staging environment": taken only as the rule above says. */
  private none(source: Source): void {
    const gone = source.kind === 'job' || (source.kind === 'read' && !this.existsFrom)
    if (gone) {
      this.idFact = null
      this.urlFact = null
      this.existsFrom = null
      this.stateFact = { value: 'none', from: source }
      return
    }
    // Nothing named it: not "none" either (only a delete or a confirmed 404 says so); the caller notes why.
    if (!this.existsFrom) return
    const named = this.idFact ?? this.urlFact
    const what = named
      ? `${named.from.words} named ${this.idFact ? `staging site ${this.idFact.value}` : 'the staging site'}${this.urlFact ? ` at ${this.urlFact.value}` : ''}`
      : `${this.existsFrom.words} said a staging environment exists`
    this.warn(
      `${capital(source.words)} says there is no staging environment, but ${what}: the sources disagree; ${named ? `what ${named.from.words} said` : 'the staging site'} was kept.`,
    )
  }

  private warn(text: string): void {
    if (this.said.has(text)) return
    this.said.add(text)
    this.voice.warn(text)
  }
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
