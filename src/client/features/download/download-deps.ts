/**
 * What the Download screens need from the app: the base maps of config.json (the own base map when
 * config has none), the project and tables to store, and the features call through the app's api
 * (so it carries the user's credentials).
 */
import { useMemo } from 'react';
import { OWN_BASEMAP, type BaseMapEntry } from '../../../common/basemap';
import type { Extent, WireFeature } from '../../../common/schemas/wire';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import type { AppDispatch } from '../../app/store-types';
import { featuresApi } from '../../lib/api/features';
import { selectConfig } from '../../lib/config/config-slice';

export interface DownloadContext {
  basemaps: BaseMapEntry[];
  projectId: number;
  tableIds: number[];
  fetchFeatures: (extent: Extent, tableIds: number[]) => Promise<WireFeature[]>;
}

/** GET /api/Features/{projectId}/extenttables through the app's RTK Query api (credentials, errors). */
export function extentFeaturesFetcher(dispatch: AppDispatch, projectId: number): DownloadContext['fetchFeatures'] {
  return async (extent, tableIds) => {
    const page = await dispatch(
      featuresApi.endpoints.featuresInExtent.initiate({ projectId, extent, tableIds }, { subscribe: false, forceRefetch: true }),
    ).unwrap();
    return page.features;
  };
}

export function useDownloadContext(): DownloadContext {
  const config = useAppSelector(selectConfig);
  const dispatch = useAppDispatch();
  return useMemo(() => {
    const basemaps = (config?.basemaps?.length ? config.basemaps : [OWN_BASEMAP]) as BaseMapEntry[];
    const projectId = config?.projectId ?? 1;
    // The tables with geometry: areas, paths and indicators (their points).
    const tableIds = config ? [config.tables.areas.id, config.tables.paths.id, config.tables.indicators.id] : [];
    return { basemaps, projectId, tableIds, fetchFeatures: extentFeaturesFetcher(dispatch, projectId) };
  }, [config, dispatch]);
}
