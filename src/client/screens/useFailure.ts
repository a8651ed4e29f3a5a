import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorPathOf, type FlowModel } from '../../domain/flow/model';
import { statusOf } from '../api/client';

/**
 * What a step does with a failed call it has no message for (spec section 8): the flow's
 * error page. A 401 has already been sent to the session-error page by the API client.
 */
export function useFailure(flow: FlowModel): (error?: unknown) => void {
  const navigate = useNavigate();
  const errorPath = errorPathOf(flow);
  return useCallback(
    (error?: unknown) => {
      if (error !== undefined && statusOf(error) === 401) return;
      navigate(errorPath, { replace: true });
    },
    [navigate, errorPath],
  );
}
