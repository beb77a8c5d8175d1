/**
 * Add a GeoJSON, GPX or KML file from the phone as a named, coloured layer that stays on the
 * device and shows on every map offline; list, hide/show and delete them. Bad files get a clear
 * Slovenian message and store nothing.
 */
import { useState } from 'react';
import { slLocalLayers } from '../../../../common/i18n/sl';
import { Button } from '../../../components/button/button';
import { addLocalLayer, deleteLocalLayer, LAYER_COLORS, setLocalLayerVisible, type LayerColor } from '../local-layers/local-layers-store';
import { LayerParseError, parseLayerFile } from '../local-layers/parse-layer';
import { useLocalLayers } from '../local-layers/use-local-layers';
import { useOfflineDb } from '../../../app/hooks';
import { readBlobText } from '../../../lib/file/read-blob';

const t = slLocalLayers.localLayers;

export function LocalLayersPanel() {
  const db = useOfflineDb();
  const { layers } = useLocalLayers(db);
  const [name, setName] = useState('');
  const [color, setColor] = useState<LayerColor>('red');
  const [message, setMessage] = useState<{ kind: 'error' | 'ok'; text: string } | null>(null);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setMessage(null);
    try {
      const data = parseLayerFile(file.name, await readBlobText(file), file.size);
      await addLocalLayer(db, { name: name.trim() || file.name.replace(/\.[^.]+$/, ''), color, data });
      setName('');
      setMessage({ kind: 'ok', text: t.added.replace('{count}', String(data.features.length)) });
    } catch (error) {
      setMessage({ kind: 'error', text: error instanceof LayerParseError ? error.message : t.errorStorage });
    }
  };

  return (
    <section className="mt-recorder" aria-label={t.title}>
      <h3>{t.title}</h3>
      {layers.length === 0 ? <p>{t.empty}</p> : null}
      <ul>
        {layers.map((layer) => (
          <li key={layer.id} data-testid={`local-layer-${layer.id}`}>
            <label>
              <input type="checkbox" checked={layer.visible} onChange={(e) => void setLocalLayerVisible(db, layer.id, e.target.checked)} /> {t.show}:{' '}
              <span style={{ color: LAYER_COLORS[layer.color], fontWeight: 600 }}>{layer.name}</span> ({layer.data.features.length})
            </label>{' '}
            <Button size="small" kind="danger" text={t.delete} onClick={() => void deleteLocalLayer(db, layer.id)} />
          </li>
        ))}
      </ul>
      <div className="mt-download__form">
        <label>
          {t.name}
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          {t.color}
          <select value={color} onChange={(e) => setColor(e.target.value as LayerColor)}>
            {(Object.keys(LAYER_COLORS) as LayerColor[]).map((c) => (
              <option key={c} value={c}>
                {t.colors[c]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.fileLabel}
          <input
            type="file"
            accept=".geojson,.json,.gpx,.kml,application/geo+json,application/gpx+xml,application/vnd.google-earth.kml+xml"
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
        </label>
      </div>
      {message ? <p role={message.kind === 'error' ? 'alert' : 'status'}>{message.text}</p> : null}
    </section>
  );
}
