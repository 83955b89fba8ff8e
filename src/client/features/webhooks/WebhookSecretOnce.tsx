/** The secret, once, with how a receiver checks a delivery against it. */
import { Alert, Button, Code, CopyButton, Group, Text } from '@mantine/core';
import { DialogFooter, DialogLayout, DialogScroll } from '../../components/DialogFooter.tsx';

export function WebhookSecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <DialogLayout>
      <DialogScroll gap="md">
        <Alert color="yellow" variant="light" title="Copy the secret now">
          The portal does not show it again. Give it to the receiver; to change it later, set a new one.
        </Alert>
        <Group gap="xs" wrap="nowrap">
          <Code block style={{ flex: 1, wordBreak: 'break-all' }} aria-label="Webhook secret">
            {secret}
          </Code>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button onClick={copy} color={copied ? 'teal' : undefined}>
                {copied ? 'Copied' : 'Copy secret'}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Text size="sm">How the receiver checks a delivery:</Text>
        <Text size="sm" component="div">
          <ul style={{ margin: 0, paddingLeft: 20 }}>
            <li>
              <Code>x-esriHook-Signature</Code> is <Code>sha256=</Code> followed by the base64 HMAC-SHA256 of the raw body with the secret.
            </li>
            <li>
              <Code>webhook-signature</Code> is <Code>v1,</Code> and the base64 HMAC-SHA256 of <Code>{'<webhook-id>.<webhook-timestamp>.<body>'}</Code>; reject
              timestamps more than 5 minutes off, and drop a <Code>webhook-id</Code> already seen.
            </li>
            <li>Compare in constant time, over the exact bytes received.</li>
          </ul>
        </Text>
      </DialogScroll>
      <DialogFooter>
        <Button onClick={onDone}>Done</Button>
      </DialogFooter>
    </DialogLayout>
  );
}
