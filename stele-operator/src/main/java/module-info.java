/**
 * The Kubernetes operator and the node agent: reconcilers of the {@code stele.dev} resources on
 * java-operator-sdk and fabric8, over stele-core's repositories.
 *
 * <p>Exports only the package the command line uses: the two processes ({@code SteleOperator},
 * {@code NodeAgent}), {@code BackupRepository} and {@code CronCheck}; everything else stays inside.
 * Open, because java-operator-sdk, fabric8 and Jackson reflect on the reconcilers and on the
 * records written as JSON, wherever they live.
 */
// fabric8 (zjsonpatch too), java-operator-sdk, Micrometer and cron-utils have no module
// descriptors.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
open module dev.stele.operator {
  requires static transitive org.jspecify; // @Nullable in exported signatures
  requires transitive dev.stele.core;
  requires transitive dev.stele.k8s.api;
  requires transitive dev.stele.s3;
  requires transitive kubernetes.client.api;
  requires transitive kubernetes.model.core;
  requires transitive operator.framework.core;
  requires kubernetes.model.apps; // server: the Deployment
  requires kubernetes.model.coordination;
  requires kubernetes.model.rbac; // server: its ServiceAccount's Role
  requires com.cronutils;
  requires com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.dataformat.yaml; // restore resource modifiers
  requires zjsonpatch; // restore resource modifiers (RFC 6902)
  requires java.net.http;
  requires transitive jdk.httpserver; // kube.HealthEndpoints
  requires transitive micrometer.core; // kube.OperatorMetrics
  requires micrometer.registry.prometheus;
  requires org.bouncycastle.pkix; // server: the generated certificate
  requires org.bouncycastle.provider;
  requires org.slf4j;

  exports dev.stele.operator;
}
