/**
 * Page-view analytics. The runtime calls `pageView` on every path change (spec section 2).
 *
 * We never load a third-party script ourselves (the CSP allows no inline or foreign script and
 * the measurement id is an operator setting). With a measurement id configured, events are only
 * queued in `window.dataLayer`, the conventional hand-off array that a tag manager installed by
 * the operator reads. Without one, nothing is recorded at all.
 */
export interface AnalyticsSink {
  pageView(path: string, title: string): void;
}

export const noopAnalyticsSink: AnalyticsSink = {
  pageView() {
    // Analytics disabled: nothing is recorded.
  },
};

export interface PageViewEvent {
  event: 'page_view';
  send_to: string;
  page_path: string;
  page_title: string;
  page_location: string;
}

type WindowWithDataLayer = Window & { dataLayer?: unknown[] };

export function createAnalyticsSink(measurementId: string | null): AnalyticsSink {
  if (measurementId === null || measurementId === '') return noopAnalyticsSink;
  return {
    pageView(path, title) {
      const target = window as WindowWithDataLayer;
      target.dataLayer = target.dataLayer ?? [];
      const event: PageViewEvent = {
        event: 'page_view',
        send_to: measurementId,
        page_path: path,
        page_title: title,
        // The origin plus the path only: query strings may carry codes from the landing URL.
        page_location: `${window.location.origin}${path}`,
      };
      target.dataLayer.push(event);
    },
  };
}
