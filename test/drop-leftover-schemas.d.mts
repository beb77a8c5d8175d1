/** Drops the test schemas (mt_tmp_…, mt_scale_…) whose owning process no longer runs. */
export default function dropLeftoverSchemas(): Promise<void>;
