/**
 * Local layers in the offline database (`localLayers`; its fields are ours): a name, a
 * colour, visibility and the parsed GeoJSON. They stay on the device (never synced).
 */
import type { FeatureCollection } from 'geojson';
import { guardWrite, type LocalLayerRow, type OfflineDb } from '../../../lib/db/database';

export const LAYER_COLORS = { red: '#c62828', blue: '#1565c0', orange: '#ef6c00', black: '#212121' } as const;
export type LayerColor = keyof typeof LAYER_COLORS;

export interface LocalLayer {
  id: number;
  name: string;
  color: LayerColor;
  visible: boolean;
  createdAt: string;
  data: FeatureCollection;
}

type StoredLayer = LocalLayerRow & { data: { geojson: FeatureCollection; color: LayerColor; visible: boolean; createdAt: string } };

export async function addLocalLayer(db: OfflineDb, layer: Omit<LocalLayer, 'id' | 'createdAt' | 'visible'>, now = Date.now()): Promise<number> {
  const row: Omit<StoredLayer, 'id'> = {
    name: layer.name,
    data: { geojson: layer.data, color: layer.color, visible: true, createdAt: new Date(now).toISOString() },
  };
  const id = (await guardWrite(db, () => db.localLayers.add(row))) as number;
  changed(db);
  return id;
}

export async function listLocalLayers(db: OfflineDb): Promise<LocalLayer[]> {
  const rows = (await db.localLayers.toArray()) as StoredLayer[];
  return rows.map((r) => ({ id: r.id!, name: r.name, color: r.data.color, visible: r.data.visible, createdAt: r.data.createdAt, data: r.data.geojson }));
}

export async function setLocalLayerVisible(db: OfflineDb, id: number, visible: boolean): Promise<void> {
  const row = (await db.localLayers.get(id)) as StoredLayer | undefined;
  if (!row) return;
  await guardWrite(db, () => db.localLayers.put({ ...row, data: { ...row.data, visible } }));
  changed(db);
}

export async function deleteLocalLayer(db: OfflineDb, id: number): Promise<void> {
  await guardWrite(db, () => db.localLayers.delete(id));
  changed(db);
}

const listeners = new Map<OfflineDb, Set<() => void>>();

/** Tells this tab's maps and panels that the local layers changed. */
export function onLocalLayersChange(db: OfflineDb, listener: () => void): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

function changed(db: OfflineDb): void {
  for (const listener of listeners.get(db) ?? []) listener();
}
