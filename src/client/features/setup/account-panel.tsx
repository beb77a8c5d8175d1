/**
 * A farmer's sign-in account, online only: its state, and the one-time activation link the editor
 * hands over (no e-mail server is assumed). "Nova povezava" replaces an unused link. Under
 * AUTH=keycloak the server answers 409 to a link request: the account lives in Keycloak.
 */
import { useState } from 'react';
import { formatDateTime } from '../../../common/format';
import { slSetup } from '../../../common/i18n/sl';
import { Button } from '../../components/button/button';
import { isLocalId } from '../../../common/record-id';
import type { ApiError } from '../../lib/api/base-query';
import { useAccountQuery, useCreateActivationMutation, type ActivationLink } from './setup-api';

export function AccountPanel({ farmerId, online }: { farmerId: number; online: boolean }) {
  const onServer = !isLocalId(farmerId);
  const account = useAccountQuery({ farmerId }, { skip: !online || !onServer });
  const [createLink, creating] = useCreateActivationMutation();
  const [link, setLink] = useState<ActivationLink | null>(null);
  const [keycloak, setKeycloak] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  let body;
  if (!online) body = <p>{slSetup.farmers.accountOffline}</p>;
  else if (!onServer) body = <p>{slSetup.farmers.accountNotYet}</p>;
  else if (account.isLoading) body = null;
  // The server's own words are for the log; the editor gets a Slovenian sentence.
  else if (account.error) body = <p role="alert">{slSetup.farmers.accountUnavailable}</p>;
  else if (keycloak || account.data?.mode === 'keycloak') body = <p>{slSetup.farmers.accountKeycloak}</p>;
  else {
    const state = account.data;
    const create = async () => {
      setError(null);
      setCopied(false);
      const result = await createLink({ farmerId });
      if ('data' in result && result.data) setLink(result.data);
      else {
        const failure = result.error as ApiError | undefined;
        // 409 means either "the account lives in Keycloak" or "already activated" (the farmer set a
        // password since the state was read): the state read again tells which.
        if (failure?.status === 409 && account.data?.mode === 'keycloak') setKeycloak(true);
        else if (failure?.status === 409) void account.refetch();
        else setError(slSetup.farmers.accountUnavailable);
      }
    };
    body = (
      <>
        <p data-testid="account-state">
          {state?.activated
            ? slSetup.farmers.accountActive
            : state?.activationPending
              ? slSetup.farmers.accountPending(formatDateTime(state.expiresAt ?? ''))
              : slSetup.farmers.accountNone}
        </p>
        {link ? (
          <div className="setup__link">
            <p>
              {slSetup.farmers.linkLead} {formatDateTime(link.expiresAt)}.
            </p>
            <input
              className="setup__link-url"
              readOnly
              value={link.url}
              aria-label={slSetup.farmers.account}
              onFocus={(e) => e.currentTarget.select()}
              data-testid="activation-link"
            />
            <Button
              kind="secondary"
              size="small"
              text={copied ? slSetup.farmers.copied : slSetup.farmers.copy}
              onClick={() => void navigator.clipboard?.writeText(link.url).then(() => setCopied(true))}
            />
          </div>
        ) : null}
        {state?.activated ? null : (
          <>
            {state?.activationPending || link ? <p>{slSetup.farmers.linkReplaces}</p> : null}
            <Button
              text={state?.activationPending || link ? slSetup.farmers.newLink : slSetup.farmers.createLink}
              disabled={creating.isLoading}
              onClick={() => void create()}
            />
          </>
        )}
        {error ? <p role="alert">{error}</p> : null}
      </>
    );
  }
  return (
    <div className="setup__account" data-testid="account-panel">
      <h3>{slSetup.farmers.account}</h3>
      {body}
    </div>
  );
}
