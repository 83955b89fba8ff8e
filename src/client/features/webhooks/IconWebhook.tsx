/** The Webhooks area's navigation icon: an event leaving along a line to a receiver (drawn like the shared icons). */
import type { SVGProps } from 'react';

export function IconWebhook({ size = 18, ...rest }: SVGProps<SVGSVGElement> & { size?: number }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      <circle cx="6" cy="17" r="3" />
      <circle cx="18" cy="17" r="3" />
      <circle cx="12" cy="6" r="3" />
      <path d="M9 17h6M10.5 8.6 7.5 14.4M13.5 8.6l3 5.8" />
    </svg>
  );
}
