"""Data-set declarations and the one setting that finds them (``WORDGAMES_DATA``)."""

from wordgames.datasets.registry import (
    DATA_ENV,
    DataFile,
    DatasetSpec,
    all_datasets,
    data_root,
    dataset_dir,
    dataset_file,
    declared_items,
    get_dataset,
    is_available,
    register,
    sha256_file,
    verify_dataset,
)

__all__ = [
    "DATA_ENV",
    "DataFile",
    "DatasetSpec",
    "all_datasets",
    "data_root",
    "dataset_dir",
    "dataset_file",
    "declared_items",
    "get_dataset",
    "is_available",
    "register",
    "sha256_file",
    "verify_dataset",
]
