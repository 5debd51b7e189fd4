/**
 * The Kubernetes operator: reconcilers for the {@code stele.dev} resources on java-operator-sdk and
 * fabric8. Each reconciler is thin — observe, validate, act, write status — and reaches storage
 * only through a {@link dev.stele.operator.StoreFactory}, so tests run it on directories or a local
 * S3 server against fabric8's mock API server.
 *
 * <p>Depends on stele-core, stele-s3 and stele-k8s-api; never on the command line.
 */
package dev.stele.operator;
