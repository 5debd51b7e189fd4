/**
 * The Kubernetes operator's process: {@link dev.stele.operator.SteleOperator} wires the reconcilers
 * of the {@code stele.dev} resources (one package per resource: {@code location}, {@code
 * repository}, {@code backup}, {@code restore}, {@code schedule}, {@code deletion}, {@code sync})
 * on java-operator-sdk and fabric8, with leader election, health endpoints and metrics. The node
 * agent ({@code nodeagent}) is the other process. {@code kube} holds what every reconciler shares,
 * {@code store} the way to storage.
 *
 * <p>Depends on stele-core, stele-s3 and stele-k8s-api; never on the command line.
 */
package dev.stele.operator;
