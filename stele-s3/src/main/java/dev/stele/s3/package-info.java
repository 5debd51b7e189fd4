/**
 * A {@link dev.stele.blob.BlobStore} on S3 and S3-compatible servers, built for buckets with Object
 * Lock.
 *
 * <p>{@link dev.stele.s3.S3BlobStore} is the store; {@link dev.stele.s3.S3Location} says where it
 * is and how to reach it; {@link dev.stele.s3.BucketConfig} is what the bucket itself enforces,
 * read once when a store opens. Everything here talks to the server through {@link
 * dev.stele.s3.S3Api}: a SigV4 client of its own over the JDK's HTTP client; the AWS SDK only finds
 * credentials and a region where the location and the environment do not give them.
 *
 * <p>This package depends on {@code dev.stele.blob} only: never on the repository, snapshots or the
 * command line (the CLI plugs this store in for {@code s3://} locations, not the other way round).
 */
package dev.stele.s3;
