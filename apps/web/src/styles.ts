// The library's styles, loaded by the start-up (main.tsx) beside the configuration and the
// language rather than linked from the page: a stylesheet in the page would hold back its first
// paint, the instant server list of index.html included, until it had downloaded.
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
