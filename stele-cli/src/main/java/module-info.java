/**
 * The {@code stele} command line: repository and snapshot commands, the cluster commands, and the
 * entry points of the operator and the node agent. Open, because picocli and Jackson reflect on the
 * commands and the records printed as JSON, and picocli reads the commands' resource bundles.
 */
@SuppressWarnings("requires-automatic") // fabric8's jars have no module descriptors
open module dev.stele.cli {
  requires dev.stele.core;
  requires dev.stele.operator;
  requires dev.stele.s3;
  requires dev.stele.server;
  requires ch.qos.logback.classic;
  requires ch.qos.logback.core;
  requires com.fasterxml.jackson.databind;
  requires info.picocli;
  requires java.net.http;
  requires jdk.httpserver; // the class-data-sharing training's imitations of S3 and an API server
  requires kubernetes.client.api;
  requires kubernetes.httpclient.jdk;
  requires kubernetes.model.apps;
  requires kubernetes.model.rbac;
  requires org.slf4j;
  requires org.snakeyaml.engine.v2; // where a kubeconfig's YAML breaks (KubeConfigs)

  uses dev.stele.cli.BlobStoreProvider;

  provides dev.stele.cli.BlobStoreProvider with
      dev.stele.cli.S3StoreProvider;
  provides ch.qos.logback.classic.spi.Configurator with
      dev.stele.cli.Logging;
}
