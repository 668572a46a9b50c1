import { errorMessage, silentLogger, type Logger, type SearchResult } from '@search-mcp/shared';
import type { SearchProvider, SearchProviderRequest } from '../search-provider.js';

export interface FallbackSearchProviderOptions {
  logger?: Logger;
  /**
   * A time limit for the primary, on top of its own. Default none: a `CloudSearchProvider` already stops at its
   * `timeoutMs`; set this when the primary is a custom provider that may hang.
   */
  primaryTimeoutMs?: number;
  /** Called with the provider that answered and, after a fallback, why. */
  onAnswer?: (answer: FallbackAnswer) => void;
}

export interface FallbackAnswer {
  providerId: string;
  /** Present when the fallback answered: what went wrong with the primary. */
  fallbackReason?: string;
}

/**
 * Asks `primary`; on any error, timeout, or an answer that is not a list of results, asks `fallback`
 * (docs/projects-and-tokens.md, "The search strategy of a request": `cloud` falls back to BM25). Logs which provider
 * answered and why. The caller's own cancellation is not a reason to fall back: it is passed on.
 */
export class FallbackSearchProvider implements SearchProvider {
  readonly id: string;
  private readonly logger: Logger;

  constructor(
    private readonly primary: SearchProvider,
    private readonly fallback: SearchProvider,
    private readonly options: FallbackSearchProviderOptions = {},
  ) {
    this.id = `${primary.id}>${fallback.id}`;
    this.logger = options.logger ?? silentLogger;
  }

  async search(request: SearchProviderRequest): Promise<SearchResult[]> {
    let reason: string;
    try {
      const results = await this.askPrimary(request);
      if (Array.isArray(results)) {
        this.logger.debug('search answered', { provider: this.primary.id, results: results.length });
        this.options.onAnswer?.({ providerId: this.primary.id });
        return results;
      }
      reason = 'the primary returned something that is not a list of results';
    } catch (error) {
      if (request.signal?.aborted) throw request.signal.reason ?? error;
      reason = errorMessage(error);
    }
    this.logger.warn('search fell back', { primary: this.primary.id, fallback: this.fallback.id, reason });
    const results = await this.fallback.search(request);
    this.options.onAnswer?.({ providerId: this.fallback.id, fallbackReason: reason });
    return results;
  }

  private askPrimary(request: SearchProviderRequest): Promise<SearchResult[]> {
    const limit = this.options.primaryTimeoutMs;
    if (limit === undefined) return this.primary.search(request);
    const timeout = AbortSignal.timeout(limit);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    return new Promise<SearchResult[]>((resolve, reject) => {
      const onAbort = () => reject(new Error(`${this.primary.id} search did not answer within ${limit} ms`));
      timeout.addEventListener('abort', onAbort, { once: true });
      this.primary
        .search({ ...request, signal })
        .then(resolve, reject)
        .finally(() => timeout.removeEventListener('abort', onAbort));
    });
  }
}
