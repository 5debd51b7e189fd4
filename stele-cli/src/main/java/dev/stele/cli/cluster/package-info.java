/**
 * The {@code stele} commands that talk to a Kubernetes cluster: Velero's {@code backup}, {@code
 * restore create|get|describe} and {@code schedule} against the kubeconfig's cluster, and the
 * processes that run inside one ({@code operator}, {@code node-agent}, {@code restore-wait}).
 *
 * <p>They build on the command line's base in {@code dev.stele.cli} ({@link
 * dev.stele.cli.SteleCommand}, {@link dev.stele.cli.CliEnvironment}, {@link
 * dev.stele.cli.CliException}, {@link dev.stele.cli.ExitCode}); that package knows only the
 * commands registered with {@link dev.stele.cli.Main}. Everything else here stays package-private.
 */
package dev.stele.cli.cluster;
