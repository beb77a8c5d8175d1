/**
 * Home's to-do for a farmer (features/home's `todo` slot): farmerTodo over the season's forms as of
 * today in Slovenia, each form named by its kind and path. Undefined for editors and readers and
 * before the season has forms, so home leaves the slot empty.
 */
import { useMemo, type ReactNode } from 'react';
import { dayInSlovenia } from '../../../common/review';
import type { AppConfig } from '../../../common/schemas/config';
import { formKindById } from '../../../common/scheme/kind-lookup';
import type { StoredRecord } from '../../lib/db/database';
import { readRow } from '../../lib/db/model';
import { farmerTodo } from './farmer-todo';
import { ReviewTodo } from './review-todo';

interface TodoRows {
  role: 'editor' | 'reader' | 'farmer' | null;
  forms: readonly StoredRecord[];
  duration: StoredRecord | null;
  durationPaths: readonly StoredRecord[];
  paths: readonly StoredRecord[];
}

export function useFarmerTodo(config: AppConfig | null, rows: TodoRows): ReactNode | undefined {
  const todo = useMemo(() => (config && rows.role === 'farmer' ? farmerTodo(config, rows, dayInSlovenia(new Date())) : null), [config, rows]);
  if (!config || !todo || !rows.forms.length) return undefined;
  const formLabel = (formId: number) => {
    const form = rows.forms.find((f) => f.id === formId);
    if (!form) return '';
    const row = readRow(config, 'forms', form);
    const link = rows.durationPaths.find((d) => d.id === row.parent);
    const path = link ? rows.paths.find((p) => p.id === readRow(config, 'durationPaths', link).path_id) : undefined;
    return [formKindById(row.form_id, config.forms)?.title, path ? readRow(config, 'paths', path).name : null].filter(Boolean).join(' · ');
  };
  return <ReviewTodo todo={todo} formLabel={formLabel} />;
}
