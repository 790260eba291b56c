import type { Dispatch } from 'react';
import { useEffect } from 'react';
import type { Notice, UiAction } from '../ui-state.js';

export const NOTICE_MS = 5000;

/** A footer notice clears itself after a few seconds (unless a newer one replaced it). */
export function useNoticeExpiry(notice: Notice | null, dispatch: Dispatch<UiAction>, ms = NOTICE_MS): void {
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => dispatch({ type: 'clearNotice', id: notice.id }), ms);
    return () => clearTimeout(timer);
  }, [notice, dispatch, ms]);
}
