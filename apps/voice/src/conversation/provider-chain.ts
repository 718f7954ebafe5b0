// A call's providers of one kind (STT, TTS or the agent's model) in the order the settings list them. A provider
// that fails hands over to the next, and the call stays there: asking a provider that just failed again would
// cost every later turn its timeout.

export class ProviderChain<T> {
  private index = 0;

  constructor(private readonly providers: readonly T[]) {
    if (providers.length === 0) throw new Error('a provider chain needs at least one provider');
  }

  /** The provider the call uses now. */
  get current(): T {
    return this.providers[this.index];
  }

  /** A provider is left after the current one. */
  get canFallBack(): boolean {
    return this.index + 1 < this.providers.length;
  }

  /**
   * `failed` failed: the call moves on to the next provider. True when there is one to retry on (also when the
   * call already moved past `failed`, through an earlier request's failure); false when none is left.
   */
  fallBackFrom(failed: T): boolean {
    const at = this.providers.indexOf(failed);
    if (at < this.index) return true;
    if (this.index + 1 >= this.providers.length) return false;
    this.index++;
    return true;
  }
}
