import { useMemo, useState } from 'preact/hooks';
import type { ApiError } from '../api/api-error.js';
import type { ToolCallAnswer, ToolDetail } from '../api/api-types.js';
import { useApp } from '../app-context.js';
import { ErrorNotice } from '../components/error-notice.js';
import { formatDuration } from '../format/format-duration.js';
import {
  argumentsFromForm,
  type FormValues,
  formValuesFromArguments,
  initialFormValues,
  parseJsonArguments,
} from './form-values.js';
import { SchemaFields } from './schema-fields.js';
import { buildFormModel } from './schema-form-model.js';

/**
 * "Try a call": the form generated from the tool's schema, or the JSON editor (always one click away, and the only
 * editor when the form cannot show the schema), then `POST /v1/tools/call` and its result as text.
 */
export function TryCall({ tool }: { tool: ToolDetail }) {
  const { client } = useApp();
  const model = useMemo(() => buildFormModel(tool.inputSchema), [tool.inputSchema]);
  const fields = model.kind === 'form' ? model.fields : [];
  const [mode, setMode] = useState<'form' | 'json'>(model.kind);
  const [values, setValues] = useState<FormValues>(() => initialFormValues(fields));
  const [json, setJson] = useState(() => JSON.stringify(argumentsFromForm(fields, values).arguments, null, 2));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [jsonError, setJsonError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<ToolCallAnswer | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);

  function switchTo(next: 'form' | 'json') {
    if (next === 'json') {
      setJson(JSON.stringify(argumentsFromForm(fields, values).arguments, null, 2));
      setJsonError(undefined);
    } else {
      const parsed = parseJsonArguments(json);
      if ('error' in parsed) return setJsonError(`Fix the JSON before switching to the form: ${parsed.error}`);
      setValues(formValuesFromArguments(fields, parsed.arguments));
    }
    setMode(next);
  }

  async function call(event: Event) {
    event.preventDefault();
    let args: Record<string, unknown>;
    if (mode === 'form') {
      const collected = argumentsFromForm(fields, values);
      setFieldErrors(collected.errors);
      if (Object.keys(collected.errors).length > 0) return;
      args = collected.arguments;
    } else {
      const parsed = parseJsonArguments(json);
      if ('error' in parsed) return setJsonError(parsed.error);
      setJsonError(undefined);
      args = parsed.arguments;
    }
    setBusy(true);
    setError(undefined);
    try {
      setAnswer(await client.post<ToolCallAnswer>('/v1/tools/call', { name: tool.toolKey, parameters: args }));
    } catch (failure) {
      setAnswer(undefined);
      setError(failure as ApiError);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="try-heading">
      <h2 id="try-heading">Try a call</h2>
      {model.kind === 'json' && (
        <p class="notice notice-warn" role="status">
          {model.reason} Write the arguments as JSON.
        </p>
      )}
      <form onSubmit={call} noValidate>
        {model.kind === 'form' && (
          <button
            type="button"
            class="secondary outline"
            aria-pressed={mode === 'json'}
            onClick={() => switchTo(mode === 'form' ? 'json' : 'form')}
          >
            {mode === 'form' ? 'Edit as JSON' : 'Edit as form'}
          </button>
        )}
        {mode === 'form' ? (
          fields.length === 0 ? (
            <p>This tool takes no arguments.</p>
          ) : (
            <SchemaFields fields={fields} values={values} errors={fieldErrors} onChange={setValues} />
          )
        ) : (
          <>
            <label for="try-json">Arguments (JSON)</label>
            <textarea
              id="try-json"
              class="json-editor"
              rows={10}
              spellcheck={false}
              value={json}
              aria-invalid={jsonError ? true : undefined}
              aria-describedby={jsonError ? 'try-json-error' : undefined}
              onInput={(event) => {
                setJson(event.currentTarget.value);
                const parsed = parseJsonArguments(event.currentTarget.value);
                setJsonError('error' in parsed ? parsed.error : undefined);
              }}
            />
            {jsonError && (
              <small id="try-json-error" class="field-error">
                {jsonError}
              </small>
            )}
          </>
        )}
        <button type="submit" aria-busy={busy} disabled={busy}>
          Call {tool.name}
        </button>
      </form>
      <ErrorNotice error={error} what="The call" />
      {answer && <CallResult answer={answer} />}
    </section>
  );
}

function CallResult({ answer }: { answer: ToolCallAnswer }) {
  const failed = !answer.success || answer.result?.isError === true;
  const texts = (answer.result?.content ?? []).filter((part) => part.type === 'text' && part.text !== undefined);
  return (
    <article aria-labelledby="result-heading" class={failed ? 'result result-error' : 'result'}>
      <h3 id="result-heading">
        {failed ? 'Result: the tool reported an error (isError)' : 'Result'}
        {answer.executionTime !== undefined && <small> · {formatDuration(answer.executionTime)}</small>}
      </h3>
      {answer.error && <p role="alert">{answer.error}</p>}
      {texts.map((part, index) => (
        <pre key={index} class="result-text">
          {part.text}
        </pre>
      ))}
      {answer.result?.structuredContent !== undefined && (
        <pre class="json">{JSON.stringify(answer.result.structuredContent, null, 2)}</pre>
      )}
      <details>
        <summary>Full answer (JSON)</summary>
        <pre class="json">{JSON.stringify(answer, null, 2)}</pre>
      </details>
    </article>
  );
}
