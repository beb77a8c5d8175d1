/**
 * The answer fields of a form's indicators: the value input for each indicator type (presence,
 * count, percent, choice, date, text), radio groups that behave as radio groups (one Tab stop,
 * arrow keys move the choice), and the ids the error summary's links move focus to.
 */
import { useRef, type KeyboardEvent } from 'react';
import { slScreens } from '../../../common/i18n/sl';
import type { IndicatorDefinition } from '../../../common/schemas/config';

/** Id of an indicator's answer field (the error summary's links move focus there). */
export const fieldId = (key: string) => `field-${key}`;

/** Moves focus to an indicator's answer: the radio group's selectable radio, or the input. */
export function focusField(key: string): void {
  const field = document.getElementById(fieldId(key));
  const target = field?.getAttribute('role') === 'radiogroup' ? field.querySelector<HTMLElement>('[role="radio"][tabindex="0"]') : field;
  target?.focus();
}

interface RadioOption {
  value: unknown;
  text: string;
  on: boolean;
  className?: string;
}

/**
 * A radio group as the ARIA pattern has it: one Tab stop (the chosen radio, else the first), the
 * arrow keys move the choice, Space or a tap on the chosen one clears it (a value may stay unknown).
 */
function RadioGroup({
  id,
  label,
  options,
  readOnly,
  required,
  errorId,
  className,
  onChange,
}: {
  id: string;
  label: string;
  options: RadioOption[];
  readOnly: boolean;
  required: boolean;
  errorId?: string;
  className: string;
  onChange: (v: unknown) => void;
}) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const chosen = options.findIndex((o) => o.on);
  const tabStop = chosen >= 0 ? chosen : 0;
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const step = event.key === 'ArrowRight' || event.key === 'ArrowDown' ? 1 : event.key === 'ArrowLeft' || event.key === 'ArrowUp' ? -1 : 0;
    if (!step || readOnly) return;
    event.preventDefault();
    const next = (index + step + options.length) % options.length;
    refs.current[next]?.focus();
    onChange(options[next]!.value);
  };
  return (
    <div
      className={className}
      role="radiogroup"
      id={id}
      aria-label={label}
      aria-required={required || undefined}
      aria-invalid={errorId ? true : undefined}
      aria-describedby={errorId}
    >
      {options.map((o, index) => (
        <button
          key={String(o.value)}
          ref={(el) => {
            refs.current[index] = el;
          }}
          type="button"
          role="radio"
          aria-checked={o.on}
          tabIndex={index === tabStop ? 0 : -1}
          className={o.on ? `choice choice--on ${o.className ?? ''}`.trim() : 'choice'}
          disabled={readOnly}
          onKeyDown={(event) => onKeyDown(event, index)}
          onClick={() => onChange(o.on ? '' : o.value)}
        >
          {o.text}
        </button>
      ))}
    </div>
  );
}

export function ValueInput({
  def,
  value,
  readOnly,
  onChange,
  errorId,
}: {
  def: IndicatorDefinition;
  value: unknown;
  readOnly: boolean;
  onChange: (v: unknown) => void;
  errorId?: string;
}) {
  const t = slScreens.forms;
  const label = def.name;
  const required = Boolean(def.required);
  const common = { id: fieldId(def.key), 'aria-describedby': errorId, 'aria-required': required || undefined, 'aria-invalid': errorId ? true : undefined };
  switch (def.valueKind) {
    case 'presence':
      return (
        <RadioGroup
          id={fieldId(def.key)}
          className="choice-row"
          label={label}
          required={required}
          errorId={errorId}
          readOnly={readOnly}
          onChange={onChange}
          options={[
            { value: true, text: t.yes, on: value === true || value === 'true', className: 'choice--yes' },
            { value: false, text: t.no, on: value === false || value === 'false', className: 'choice--no' },
          ]}
        />
      );
    case 'count':
    case 'percent':
      return (
        <label className="field field--inline">
          <span className="visually-hidden">{label}</span>
          <input
            type="number"
            inputMode={def.valueKind === 'count' ? 'numeric' : 'decimal'}
            min={0}
            max={def.valueKind === 'percent' ? 100 : def.max}
            step={def.valueKind === 'count' ? 1 : 'any'}
            value={typeof value === 'string' || typeof value === 'number' ? value : ''}
            readOnly={readOnly}
            {...common}
            onChange={(e) => onChange(e.target.value)}
          />
          <span className="field__unit">{def.valueKind === 'percent' ? '%' : (def.unit ?? '')}</span>
        </label>
      );
    case 'choice':
      return (
        <RadioGroup
          id={fieldId(def.key)}
          className="choice-list"
          label={label}
          required={required}
          errorId={errorId}
          readOnly={readOnly}
          onChange={onChange}
          options={(def.choices ?? []).map((c) => ({ value: c.value, text: c.label, on: value === c.value }))}
        />
      );
    case 'date':
      return (
        <label className="field field--inline">
          <span className="visually-hidden">{label}</span>
          <input type="date" value={typeof value === 'string' ? value : ''} readOnly={readOnly} {...common} onChange={(e) => onChange(e.target.value)} />
        </label>
      );
    case 'text':
    default:
      return (
        <label className="field">
          <span className="visually-hidden">{label}</span>
          <textarea rows={3} value={typeof value === 'string' ? value : ''} readOnly={readOnly} {...common} onChange={(e) => onChange(e.target.value)} />
        </label>
      );
  }
}
